// The chat mode menu on the composer (spec section 4): Gemini, Loris eco, ChatGPT. A mode this
// server cannot serve (GET /api/config) is shown disabled with the reason.
import { ChevronDown, Leaf, MessageSquare, Sparkles } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#client/components/ui/dropdown-menu.tsx'
import { useAppConfig } from '#client/features/config/api/get-config.ts'
import { type ChatModel, chatModelSchema } from '#contract/config.ts'
import { setChatModel, useChatMode } from '../hooks/use-chat-mode.ts'
import { modeLabels } from '../lib/chat-mode.ts'

const icons: Record<ChatModel, typeof Leaf> = { gemini: Sparkles, loris: Leaf, chatgpt: MessageSquare }
const order: ChatModel[] = ['gemini', 'loris', 'chatgpt']

export function ModeMenu() {
  const { model } = useChatMode()
  const config = useAppConfig()
  const Icon = icons[model]
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Chat mode: ${modeLabels[model]}`} className="gap-1.5">
          <Icon className={model === 'loris' ? 'text-primary' : undefined} aria-hidden="true" />
          <span className="hidden sm:inline">{modeLabels[model]}</span>
          <ChevronDown className="opacity-60" aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" side="top" className="w-64">
        <DropdownMenuLabel>Chat mode</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup
          value={model}
          onValueChange={(value) => {
            const parsed = chatModelSchema.safeParse(value)
            if (parsed.success) setChatModel(parsed.data)
          }}
        >
          {order.map((m) => {
            const availability = config?.modes[m]
            const unavailable = availability ? !availability.available : false
            const ModeIcon = icons[m]
            return (
              <DropdownMenuRadioItem key={m} value={m} disabled={unavailable} className="items-start">
                <ModeIcon className="mt-0.5 shrink-0" aria-hidden="true" />
                <span className="flex flex-col">
                  <span>{modeLabels[m]}</span>
                  {unavailable && (
                    <span className="text-xs text-muted-foreground">
                      {availability?.reason ?? 'Not available on this server'}
                    </span>
                  )}
                </span>
              </DropdownMenuRadioItem>
            )
          })}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
