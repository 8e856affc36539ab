import type { ReactNode } from 'react'
import { Label } from '#client/components/ui/label.tsx'
import { cn } from '#client/lib/cn.ts'

/** A label above its control, with an optional hint or error below (tied by aria-describedby). */
export function Field({
  id,
  label,
  hint,
  error,
  className,
  children,
}: {
  id: string
  label: string
  hint?: ReactNode
  error?: string
  className?: string
  children: ReactNode
}) {
  return (
    <div className={cn('grid min-w-0 content-start gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** A native select in the Input's look: on a phone it opens the system's own picker. */
export const selectClass =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-ring md:text-sm'

/** A download of the server's CSV: a plain link, so the browser saves the file itself. */
export function CsvLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      download
      className="inline-flex h-10 items-center rounded-md border border-input px-4 text-sm font-medium hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
    >
      {children}
    </a>
  )
}
