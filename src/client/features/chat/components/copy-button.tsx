import { Check, Copy } from 'lucide-react'
import { useEffect, useState } from 'react'
import { cn } from '#client/lib/cn.ts'

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
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 1500)
    return () => clearTimeout(timer)
  }, [copied])
  return (
    <button
      type="button"
      aria-label={copied ? 'Copied' : label}
      title={label}
      onClick={() => {
        navigator.clipboard
          .writeText(read())
          .then(() => setCopied(true))
          .catch((err: unknown) => console.warn('Copy failed', err))
      }}
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
