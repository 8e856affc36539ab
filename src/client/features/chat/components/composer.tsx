// The composer (spec sections 2 and 5): a text area fixed at 100 px, Enter sends, Shift+Enter adds a line;
// sending needs trimmed text (or a file) and no reply in progress, and waits while recording.
// Stop appears while a reply streams.
import ArrowUp from 'lucide-react/icons/arrow-up'
import Square from 'lucide-react/icons/square'
import { forwardRef, type ReactNode } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Textarea } from '#client/components/ui/textarea.tsx'
import { isComposing } from '#client/lib/keyboard.ts'
import { ModeMenu } from './mode-menu.tsx'

export interface ComposerProps {
  value: string
  onChange: (value: string) => void
  onSend: () => void
  /** A reply is on its way: sending waits. */
  busy: boolean
  /** Stop the reply being generated; absent when there is nothing to stop yet. */
  onStop?: () => void
  /** A file goes with the message: it can be sent without text. */
  hasFile?: boolean
  /** Voice recording in progress: sending waits (spec 5). */
  blocked?: boolean
  placeholder?: string
  /** Shown above the text (the chosen file's chip). */
  attachment?: ReactNode
  /** Beside the mode menu (attach and voice buttons). */
  tools?: ReactNode
  /** Why nothing can be sent in the chosen mode (shown, and the send button disabled); null: it can. */
  unavailableReason?: string | null
  /** Beside the send button: the message's estimated footprint (pre-send-estimate.tsx). */
  estimate?: ReactNode
}

export const Composer = forwardRef<HTMLTextAreaElement, ComposerProps>(function Composer(
  {
    value,
    onChange,
    onSend,
    busy,
    onStop,
    hasFile = false,
    blocked = false,
    placeholder,
    attachment,
    tools,
    unavailableReason = null,
    estimate,
  },
  ref,
) {
  const canSend = (value.trim().length > 0 || hasFile) && !busy && !blocked && !unavailableReason
  return (
    <form
      className="mx-auto w-full max-w-5xl shrink-0 px-3 pb-2 pt-1 sm:px-4 sm:pb-3 sm:pt-2"
      onSubmit={(e) => {
        e.preventDefault()
        if (canSend) onSend()
      }}
    >
      <div className="rounded-xl border border-input bg-card focus-within:border-ring">
        {attachment}
        <Textarea
          ref={ref}
          aria-label="Message"
          placeholder={placeholder ?? 'Ask Loris anything...'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || e.shiftKey || isComposing(e)) return
            e.preventDefault()
            if (canSend) onSend()
          }}
          className="h-[100px] min-h-0 resize-none border-0 bg-transparent focus-visible:outline-none"
        />
        <div className="flex items-center justify-between gap-2 px-2 pb-1.5 sm:pb-2">
          <div className="flex items-center gap-1">
            <ModeMenu />
            {tools}
          </div>
          {busy && onStop ? (
            <Button
              type="button"
              size="icon"
              variant="secondary"
              aria-label="Stop generating"
              onClick={onStop}
            >
              <Square className="fill-current" aria-hidden="true" />
            </Button>
          ) : (
            <span className="flex items-center gap-2">
              {!unavailableReason && estimate}
              {unavailableReason && (
                <span
                  id="send-unavailable"
                  className="text-right text-xs text-muted-foreground"
                  role="status"
                >
                  {unavailableReason}
                </span>
              )}
              <Button
                type="submit"
                size="icon"
                aria-label="Send message"
                disabled={!canSend}
                aria-describedby={unavailableReason ? 'send-unavailable' : undefined}
                title={unavailableReason ?? undefined}
              >
                <ArrowUp aria-hidden="true" />
              </Button>
            </span>
          )}
        </div>
      </div>
    </form>
  )
})
