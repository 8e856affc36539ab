import Check from 'lucide-react/icons/check'
import Copy from 'lucide-react/icons/copy'
import { useEffect, useState } from 'react'
import { cn } from '#client/lib/cn.ts'

/** Copies text; `copied` is true for 1.5 s after a copy (the button shows a check meanwhile). */
export function useCopyToClipboard() {
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 1500)
    return () => clearTimeout(timer)
  }, [copied])
  const copy = (text: string) =>
    navigator.clipboard
      .writeText(text)
      .then(() => setCopied(true))
      .catch((err: unknown) => console.warn('Copy failed', err))
  return { copied, copy }
}

/** The hover copy button of tables and code blocks; `read` gives the text at click time. */
export function CopyButton({
  read,
  label,
  className,
}: {
  read: () => string
  label: string
  className?: string
}) {
  const { copied, copy } = useCopyToClipboard()
  return (
    <button
      type="button"
      aria-label={copied ? 'Copied' : label}
      title={label}
      onClick={() => void copy(read())}
      className={cn(
        'absolute right-2 top-2 rounded-md border bg-background/90 p-1.5 text-muted-foreground opacity-0 transition-opacity hover:text-foreground focus-visible:opacity-100 group-hover:opacity-100',
        className,
      )}
    >
      {copied ? (
        <Check className="size-4" aria-hidden="true" />
      ) : (
        <Copy className="size-4" aria-hidden="true" />
      )}
    </button>
  )
}
