// Beside the send button: what the message about to be sent should emit in the chosen mode or
// model, and a one-click switch when another allowed choice would emit half or less
// (lib/footprint-estimate.ts). Computed on every keystroke from data the page has.
import { formatSmall } from '#client/lib/impact-format.ts'
import { useModels } from '../api/get-models.ts'
import { setChatModel, useChatMode } from '../hooks/use-chat-mode.ts'
import { setChosenModel, useChosenModel } from '../hooks/use-chosen-model.ts'
import { estimateFootprint } from '../lib/footprint-estimate.ts'

export function PreSendEstimate({ text, historyChars }: { text: string; historyChars: number }) {
  const { model: mode } = useChatMode()
  const chosen = useChosenModel()
  const data = useModels().data
  const known = chosen && data?.models.some((m) => m.id === chosen) ? chosen : null
  const estimate = estimateFootprint(data, { mode, model: known }, text.length, historyChars)
  if (!estimate) return null
  const { suggestion } = estimate
  return (
    <span className="flex flex-wrap items-center justify-end gap-x-1.5 text-right text-xs text-muted-foreground">
      <span data-testid="pre-send-estimate" className="tabular-nums">
        ~{formatSmall(estimate.grams)} g CO2
      </span>
      {suggestion && (
        <button
          type="button"
          data-testid="pre-send-suggestion"
          className="rounded-sm text-primary underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-ring"
          onClick={() => {
            if (suggestion.model) setChosenModel(suggestion.model)
            else {
              setChosenModel(null)
              setChatModel(suggestion.mode)
            }
          }}
        >
          {suggestion.name}: ~{formatSmall(suggestion.grams)} g
        </button>
      )}
    </span>
  )
}
