// The sheet listing the chat's keyboard shortcuts: '?' or Ctrl+/ (⌘/ on a Mac) opens it.
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#client/components/ui/dialog.tsx'
import { keyLabel, SHORTCUTS } from '../lib/shortcuts.ts'

export const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

export function ShortcutsDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const mac = isMac()
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogTitle>Keyboard shortcuts</DialogTitle>
        <DialogDescription className="sr-only">What each key does in the chat</DialogDescription>
        <dl className="grid gap-2 text-sm">
          {SHORTCUTS.map((s) => (
            <div key={s.action} className="flex items-center justify-between gap-4">
              <dt>{s.label}</dt>
              <dd className="flex shrink-0 items-center gap-2">
                {s.keys.map((combo, i) => (
                  <span key={combo.join('+')} className="flex items-center gap-1">
                    {i > 0 && <span className="text-muted-foreground">or</span>}
                    {combo.map((k) => (
                      <kbd
                        key={k}
                        className="rounded border border-input bg-muted px-1.5 py-0.5 font-mono text-xs"
                      >
                        {keyLabel(k, mac)}
                      </kbd>
                    ))}
                  </span>
                ))}
              </dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  )
}
