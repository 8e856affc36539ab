import ArrowUpRight from 'lucide-react/icons/arrow-up-right'
import type { ReactNode } from 'react'

/** A link that leaves Loris: new tab, no opener, no referrer, and says so to screen readers. */
export function ExternalLink({
  href,
  className,
  children,
}: {
  href: string
  className?: string
  children: ReactNode
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <ArrowUpRight className="size-4 shrink-0" aria-hidden="true" />
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  )
}
