// The composer (spec sections 2 and 5): a 100 px text area, Enter sends, Shift+Enter adds a line;
// sending needs trimmed text and no reply in progress. Stop appears while a reply streams.
import { ArrowUp, Square } from 'lucide-react'
import { forwardRef } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Textarea } from '#client/components/ui/textarea.tsx'
import { ModeMenu } from './mode-menu.tsx'

export interface ComposerProps {
  value: string
  onChange: (value: string) => void
  onSend: () => void
  /** A reply is on its way: sending waits. */
  busy: boolean
  /** Stop the reply being generated; absent when there is nothing to stop yet. */
  onStop?: () => void
}

export const Composer = forwardRef<HTMLTextAreaElement, ComposerProps>(function Composer(
  { value, onChange, onSend, busy, onStop },
  ref,
) {
  const canSend = value.trim().length > 0 && !busy
  return (
    <form
      className="mx-auto w-full max-w-5xl shrink-0 px-4 pb-3 pt-2"
      onSubmit={(e) => {
        e.preventDefault()
        if (canSend) onSend()
      }}
    >
      <div className="rounded-xl border bg-card focus-within:border-ring">
        <Textarea
          ref={ref}
          aria-label="Message"
          placeholder="Ask Loris anything..."
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return
            e.preventDefault()
            if (canSend) onSend()
          }}
          className="h-[100px] resize-none border-0 bg-transparent focus-visible:outline-none"
        />
        <div className="flex items-center justify-between gap-2 px-2 pb-2">
          <ModeMenu />
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
            <Button type="submit" size="icon" aria-label="Send message" disabled={!canSend}>
              <ArrowUp aria-hidden="true" />
            </Button>
          )}
        </div>
      </div>
    </form>
  )
})
