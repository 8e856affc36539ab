import ArrowLeft from 'lucide-react/icons/arrow-left'
import type { ReactNode } from 'react'
import { Link, useSearch } from 'wouter'

export const LAST_UPDATED = 'January 22, 2025'

/** Spec section 2: `from=waitlist` (the default) links back to /, any other value to /chat. */
function backLink(search: string): { href: string; label: string } {
  const from = new URLSearchParams(search).get('from') ?? 'waitlist'
  return from === 'waitlist'
    ? { href: '/', label: 'Back to waitlist' }
    : { href: '/chat', label: 'Back to chat' }
}

export function LegalLayout({ title, children }: { title: string; children: ReactNode }) {
  const back = backLink(useSearch())
  return (
    <main className="mx-auto max-w-3xl px-5 py-10 sm:py-16">
      <Link href={back.href} className="inline-flex items-center gap-2 text-sm text-primary hover:underline">
        <ArrowLeft className="size-4" aria-hidden="true" />
        {back.label}
      </Link>
      <h1 className="mt-8 text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-2 text-sm text-muted-foreground">Last updated {LAST_UPDATED}</p>
      <div className="mt-8 space-y-6 leading-relaxed text-zinc-300 [&_h2]:mt-10 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-foreground [&_li]:ml-5 [&_li]:list-disc [&_ul]:space-y-2">
        {children}
      </div>
    </main>
  )
}
