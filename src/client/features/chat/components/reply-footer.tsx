// Under each reply: the versions of the turn, Copy, Regenerate, '@', Retry when the
// reply failed or broke off, then the model that answered, the time and this reply's CO2.
import ArrowUpRight from 'lucide-react/icons/arrow-up-right'
import AtSign from 'lucide-react/icons/at-sign'
import Check from 'lucide-react/icons/check'
import ChevronLeft from 'lucide-react/icons/chevron-left'
import ChevronRight from 'lucide-react/icons/chevron-right'
import Copy from 'lucide-react/icons/copy'
import RefreshCw from 'lucide-react/icons/refresh-cw'
import RotateCcw from 'lucide-react/icons/rotate-ccw'
import { useAppConfig } from '#client/app/api/get-config.ts'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#client/components/ui/dropdown-menu.tsx'
import { Tooltip, TooltipContent, TooltipTrigger } from '#client/components/ui/tooltip.tsx'
import { cn } from '#client/lib/cn.ts'
import { formatEnergy, formatRangeWith, formatSmall, formatWater } from '#client/lib/impact-format.ts'
import { isChatModel } from '#contract/chat-models.ts'
import type { ChatModel } from '#contract/config.ts'
import type { Message, MessageCo2Impact } from '#contract/messages.ts'
import { modeLabels } from '../lib/chat-mode.ts'
import { replyTime } from '../lib/reply-time.ts'
import { useCopyToClipboard } from './copy-button.tsx'
import { type RevisedExchange, useExchangeActions } from './exchange-actions.tsx'

const MODES: ChatModel[] = ['gemini', 'loris', 'chatgpt']

export const actionButtonClass =
  'inline-flex h-7 min-w-7 items-center justify-center gap-1 rounded-md px-1.5 text-xs text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50'

function ActionTip({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  )
}

/** Copies the reply as it was written (markdown). */
export function CopyMarkdownButton({ text, label }: { text: string; label: string }) {
  const { copied, copy } = useCopyToClipboard()
  return (
    <ActionTip label={label}>
      <button
        type="button"
        aria-label={copied ? 'Copied' : label}
        className={actionButtonClass}
        onClick={() => void copy(text)}
      >
        {copied ? (
          <Check className="size-3.5" aria-hidden="true" />
        ) : (
          <Copy className="size-3.5" aria-hidden="true" />
        )}
      </button>
    </ActionTip>
  )
}

/** ‹ 2/3 › between the versions of a turn. */
export function VersionSwitcher({ id, versionIds }: { id: string; versionIds: string[] }) {
  const actions = useExchangeActions()
  const index = versionIds.indexOf(id)
  if (!actions || versionIds.length < 2 || index < 0) return null
  const go = (to: number) => {
    const target = versionIds[to]
    if (target) actions.selectVersion(target)
  }
  return (
    <div className="flex items-center text-xs text-muted-foreground" data-testid="version-switcher">
      <button
        type="button"
        aria-label="Previous version"
        data-shortcut="previous-version"
        className={actionButtonClass}
        disabled={actions.busy || index === 0}
        onClick={() => go(index - 1)}
      >
        <ChevronLeft className="size-3.5" aria-hidden="true" />
      </button>
      <span className="tabular-nums" aria-hidden="true">
        {index + 1}/{versionIds.length}
      </span>
      <span className="sr-only">{`Version ${index + 1} of ${versionIds.length}`}</span>
      <button
        type="button"
        aria-label="Next version"
        data-shortcut="next-version"
        className={actionButtonClass}
        disabled={actions.busy || index === versionIds.length - 1}
        onClick={() => go(index + 1)}
      >
        <ChevronRight className="size-3.5" aria-hidden="true" />
      </button>
    </div>
  )
}

function RegenerateMenu({ of, model }: { of: RevisedExchange; model: ChatModel }) {
  const actions = useExchangeActions()
  const config = useAppConfig()
  if (!actions) return null
  return (
    <DropdownMenu>
      <ActionTip label="Regenerate">
        <DropdownMenuTrigger asChild>
          <button type="button" aria-label="Regenerate" className={actionButtonClass} disabled={actions.busy}>
            <RefreshCw className="size-3.5" aria-hidden="true" />
          </button>
        </DropdownMenuTrigger>
      </ActionTip>
      <DropdownMenuContent align="start" className="w-56">
        <DropdownMenuLabel>Regenerate with</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {MODES.map((m) => {
          const availability = config?.modes[m]
          const unavailable = availability ? !availability.available : false
          return (
            <DropdownMenuItem key={m} disabled={unavailable} onSelect={() => actions.regenerate(of, m)}>
              {modeLabels[m]}
              {m === model && <span className="ml-auto text-xs text-muted-foreground">same mode</span>}
            </DropdownMenuItem>
          )
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

const grams = (g: number) => `${formatSmall(g)} g`

interface Figure {
  label: string
  mid: string
  range?: string
}

/** The reply's footprint: CO2 with its bounds, then energy and water when counted. */
export function footprintFigures(co2: MessageCo2Impact): Figure[] {
  const gramsRange = (r?: { min: number; max: number }) =>
    r && `${formatSmall(r.min)} to ${formatSmall(r.max)} g`
  const rows: Figure[] = [
    { label: 'CO2 of this reply', mid: grams(co2.actual), range: gramsRange(co2.range?.actual) },
    { label: 'CO2 saved', mid: grams(co2.saved), range: gramsRange(co2.range?.saved) },
    { label: 'A standard model', mid: grams(co2.standard), range: gramsRange(co2.range?.standard) },
  ]
  // Replies stored before energy and water were counted have neither.
  if (co2.energyWh)
    rows.push({
      label: 'Energy',
      mid: formatEnergy(co2.energyWh.mid),
      range: formatRangeWith(co2.energyWh, formatEnergy),
    })
  if (co2.waterL)
    rows.push({
      label: 'Water',
      mid: formatWater(co2.waterL.mid),
      range: formatRangeWith(co2.waterL, formatWater),
    })
  return rows
}

function Co2Figures({ co2 }: { co2: MessageCo2Impact }) {
  return (
    <dl className="grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5 text-xs" data-testid="reply-footprint">
      {footprintFigures(co2).map((r) => (
        <div key={r.label} className="contents">
          <dt>{r.label}</dt>
          <dd className="tabular-nums">
            {r.mid}
            {r.range && ` (${r.range})`}
          </dd>
        </div>
      ))}
    </dl>
  )
}

export type FooterExchange = Pick<
  Message,
  | 'content'
  | 'response'
  | 'chatModel'
  | 'status'
  | 'mediaUrl'
  | 'mediaType'
  | 'createdAt'
  | 'completedAt'
  | 'co2Impact'
  | 'modelName'
  | 'modelId'
  | 'versionIds'
> & {
  /** Null on a shared conversation: its footer offers no action, only Copy and the figures. */
  id: string | null
}

export function ReplyFooter({ exchange }: { exchange: FooterExchange }) {
  const { id, status, co2Impact } = exchange
  // A reply from a catalogue model is retried with that model; the menu offers the modes.
  const chatModel: ChatModel = isChatModel(exchange.chatModel) ? exchange.chatModel : 'gemini'
  const catalogueModel = isChatModel(exchange.chatModel) ? null : (exchange.modelId ?? null)
  const context = useExchangeActions()
  const actions = id ? context : null
  const time = replyTime(exchange.completedAt ?? exchange.createdAt)
  const broken = status === 'failed' || status === 'interrupted'
  const of: RevisedExchange | null = id
    ? { id, content: exchange.content, mediaUrl: exchange.mediaUrl, mediaType: exchange.mediaType }
    : null
  return (
    <div
      data-testid="reply-footer"
      className="mt-2 flex flex-wrap items-center gap-x-1 gap-y-1 text-xs text-muted-foreground"
    >
      {id && <VersionSwitcher id={id} versionIds={exchange.versionIds ?? [id]} />}
      {broken && actions && of && (
        <button
          type="button"
          className={cn(actionButtonClass, 'border text-foreground')}
          disabled={actions.busy}
          onClick={() => actions.regenerate(of, chatModel, catalogueModel)}
        >
          <RotateCcw className="size-3.5" aria-hidden="true" /> Retry
        </button>
      )}
      {exchange.response && <CopyMarkdownButton text={exchange.response} label="Copy reply" />}
      {of && <RegenerateMenu of={of} model={chatModel} />}
      {co2Impact?.routing && actions && of && (
        <button
          type="button"
          className={cn(actionButtonClass, 'border text-foreground')}
          disabled={actions.busy}
          onClick={() => actions.askLarger(of)}
        >
          <ArrowUpRight className="size-3.5" aria-hidden="true" /> Ask a larger model
        </button>
      )}
      {actions && id && (
        <ActionTip label="Start new thread from this message">
          <button
            type="button"
            aria-label="Start new thread from this message"
            disabled={actions.creatingThread}
            onClick={() => actions.newThread(id)}
            className={actionButtonClass}
          >
            <AtSign className="size-3.5" aria-hidden="true" />
          </button>
        </ActionTip>
      )}
      <span className="ml-1 flex flex-wrap items-center gap-x-1.5" data-testid="reply-meta">
        {exchange.modelName && <span data-testid="reply-model">{exchange.modelName}</span>}
        {time && (
          <>
            {exchange.modelName && <span aria-hidden="true">·</span>}
            <time dateTime={time.iso}>{time.text}</time>
          </>
        )}
        {co2Impact && (
          <>
            {(exchange.modelName || time) && <span aria-hidden="true">·</span>}
            <Tooltip>
              <TooltipTrigger asChild>
                <button
                  type="button"
                  data-testid="reply-co2"
                  className="rounded-sm tabular-nums underline decoration-dotted underline-offset-2 focus-visible:outline-2 focus-visible:outline-ring"
                >
                  {grams(co2Impact.actual)} CO2 · {grams(co2Impact.saved)} saved
                </button>
              </TooltipTrigger>
              <TooltipContent>
                <Co2Figures co2={co2Impact} />
              </TooltipContent>
            </Tooltip>
          </>
        )}
      </span>
      {co2Impact?.routing && (
        <span className="basis-full" data-testid="reply-routing">
          {co2Impact.routing.reason}
          {co2Impact.routing.savedGrams > 0 &&
            ` · routing saved ${grams(co2Impact.routing.savedGrams)} against ${co2Impact.routing.against}`}
        </span>
      )}
    </div>
  )
}
