// The chat mode menu on the composer (spec section 4): Gemini, Loris eco, ChatGPT. A mode this
// server cannot serve (GET /api/config) is shown disabled with the reason; the Loris eco model,
// on its first use, says it is being prepared with a progress bar.
import Boxes from 'lucide-react/icons/boxes'
import ChevronDown from 'lucide-react/icons/chevron-down'
import Leaf from 'lucide-react/icons/leaf'
import MessageSquare from 'lucide-react/icons/message-square'
import Sparkles from 'lucide-react/icons/sparkles'
import { isEcoPreparing, useAppConfig } from '#client/app/api/get-config.ts'
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
import { formatSmall } from '#client/lib/impact-format.ts'
import { isChatModel } from '#contract/chat-models.ts'
import type { AppConfig, ChatModel } from '#contract/config.ts'
import { useModels } from '../api/get-models.ts'
import { setChatModel, useChatMode } from '../hooks/use-chat-mode.ts'
import { setChosenModel, useChosenModel } from '../hooks/use-chosen-model.ts'
import { modeLabels } from '../lib/chat-mode.ts'

const icons: Record<ChatModel, typeof Leaf> = { gemini: Sparkles, loris: Leaf, chatgpt: MessageSquare }
const order: ChatModel[] = ['gemini', 'loris', 'chatgpt']

/** A catalogue model's value among the radio items (modes are their own names). */
const MODEL_PREFIX = 'model:'

const megabytes = (bytes: number) => `${Math.round(bytes / 1_000_000)} MB`

/** The eco model's first preparation: download progress, then loading. */
export function EcoPreparing({ status }: { status: NonNullable<AppConfig['ecoEngine']> }) {
  const downloading = status.state === 'downloading'
  const label =
    downloading && status.bytes !== null && status.totalBytes
      ? `Being prepared: ${status.percent ?? 0}% of ${megabytes(status.totalBytes)}`
      : downloading
        ? 'Being prepared: downloading the model'
        : 'Being prepared: starting the model'
  return (
    <span className="mt-1 flex w-full flex-col gap-1" data-testid="eco-preparing">
      <span className="text-xs text-muted-foreground">{label}</span>
      <span
        role="progressbar"
        aria-label="Loris eco model preparation"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={downloading ? (status.percent ?? undefined) : undefined}
        className="block h-1.5 w-full overflow-hidden rounded-full bg-muted"
      >
        <span
          className={
            downloading
              ? 'block h-full bg-primary transition-[width]'
              : 'block h-full w-1/3 animate-pulse bg-primary'
          }
          style={downloading ? { width: `${status.percent ?? 0}%` } : undefined}
        />
      </span>
    </span>
  )
}

export function ModeMenu() {
  const { model } = useChatMode()
  const config = useAppConfig()
  const chosen = useChosenModel()
  const models = useModels().data?.models ?? []
  const chosenModel = models.find((m) => m.id === chosen)
  const Icon = chosenModel ? Boxes : icons[model]
  const label = chosenModel?.name ?? modeLabels[model]
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Chat mode: ${label}`} className="gap-1.5">
          <Icon
            className={model === 'loris' && !chosenModel ? 'text-primary' : undefined}
            aria-hidden="true"
          />
          <span className="hidden sm:inline">{label}</span>
          <ChevronDown className="opacity-60" aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" side="top" className="w-64">
        <DropdownMenuLabel>Chat mode</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup
          value={chosenModel ? `${MODEL_PREFIX}${chosenModel.id}` : model}
          onValueChange={(value) => {
            if (value.startsWith(MODEL_PREFIX)) setChosenModel(value.slice(MODEL_PREFIX.length))
            else if (isChatModel(value)) {
              setChosenModel(null)
              setChatModel(value)
            }
          }}
        >
          {order.map((m) => {
            const availability = config?.modes[m]
            const unavailable = availability ? !availability.available : false
            const ModeIcon = icons[m]
            const preparing = m === 'loris' && isEcoPreparing(config) && config?.ecoEngine
            return (
              <DropdownMenuRadioItem key={m} value={m} disabled={unavailable} className="items-start">
                <ModeIcon className="mt-0.5 shrink-0" aria-hidden="true" />
                <span className="flex min-w-0 flex-1 flex-col">
                  <span>{modeLabels[m]}</span>
                  {unavailable && (
                    <span className="text-xs text-muted-foreground">
                      {availability?.reason ?? 'Not available on this server'}
                    </span>
                  )}
                  {preparing && <EcoPreparing status={preparing} />}
                </span>
              </DropdownMenuRadioItem>
            )
          })}
          {models.length > 0 && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuLabel>More models</DropdownMenuLabel>
              {models.map((m) => (
                <DropdownMenuRadioItem key={m.id} value={`${MODEL_PREFIX}${m.id}`} className="items-start">
                  <Boxes className="mt-0.5 shrink-0" aria-hidden="true" />
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span>{m.name}</span>
                    <span className="text-xs text-muted-foreground">
                      {m.typicalReplyGrams === null
                        ? 'footprint unknown'
                        : `about ${formatSmall(m.typicalReplyGrams)} g CO2 per reply`}
                    </span>
                  </span>
                </DropdownMenuRadioItem>
              ))}
            </>
          )}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
