import type { ReactNode } from 'react'

/** A landing section: an h2 with a short eyebrow and intro, then the section's own content. */
export function Section({
  id,
  eyebrow,
  title,
  intro,
  children,
}: {
  id: string
  eyebrow: string
  title: string
  intro: ReactNode
  children: ReactNode
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className="mx-auto max-w-5xl scroll-mt-8 px-5 py-16 sm:py-20"
    >
      <p className="text-sm font-semibold uppercase tracking-wider text-emerald-400">{eyebrow}</p>
      <h2
        id={`${id}-heading`}
        className="mt-3 max-w-3xl text-3xl font-bold tracking-tight text-balance sm:text-4xl"
      >
        {title}
      </h2>
      <div className="mt-5 max-w-2xl text-lg leading-relaxed text-zinc-300">{intro}</div>
      {children}
    </section>
  )
}
