import { ExternalLink } from './external-link.tsx'
import { Section } from './section.tsx'

const partners = [
  {
    name: 'Eden: People+Planet',
    href: 'https://www.eden-plus.org',
    site: 'eden-plus.org',
    body: 'Formerly Eden Reforestation Projects. Employs people from local communities to plant and protect forests, from mangrove coasts in Madagascar to hillsides in Nepal.',
  },
  {
    name: 'One Tree Planted',
    href: 'https://onetreeplanted.org',
    site: 'onetreeplanted.org',
    body: 'A nonprofit that plants trees with local partners around the world, restoring land after wildfires, floods and deforestation.',
  },
  {
    name: 'Trees for the Future',
    href: 'https://trees.org',
    site: 'trees.org',
    body: 'Trains farming families in sub-Saharan Africa to grow Forest Gardens: trees among the crops that restore the soil and raise incomes.',
  },
]

/** Spec sections 1, 2 and 9: reforestation partners and the 10 percent pledge. */
export function Partners() {
  return (
    <Section
      id="partners"
      eyebrow="Reforestation partners"
      title="Real trees, planted by people who know the land"
      intro="Your trees are planted through organisations that work with local communities and report where and what they plant. Your tree count in Loris goes up as you chat."
    >
      <ul className="mt-12 grid gap-5 md:grid-cols-3">
        {partners.map((p) => (
          <li key={p.name} className="flex flex-col rounded-xl border bg-card p-6">
            <h3 className="text-lg font-semibold">{p.name}</h3>
            <p className="mt-2 flex-1 leading-relaxed text-zinc-300">{p.body}</p>
            <ExternalLink
              href={p.href}
              className="mt-5 inline-flex items-center gap-1 self-start font-medium text-emerald-300 underline-offset-4 hover:underline"
            >
              {p.site}
            </ExternalLink>
          </li>
        ))}
      </ul>
      <div
        data-testid="pledge"
        className="mt-10 flex flex-col gap-4 rounded-2xl border border-primary/30 bg-primary/10 p-6 sm:flex-row sm:items-center sm:gap-8 sm:p-8"
      >
        <p className="text-5xl font-bold tracking-tight text-emerald-300 sm:text-6xl" aria-hidden="true">
          10%
        </p>
        <div>
          <p className="text-xl font-semibold">
            10 percent of every subscription goes to environmental causes.
          </p>
          <p className="mt-2 text-zinc-300">
            About $2.40 of every $23.99 Loris Pro month funds reforestation and climate work, on top of the
            trees your messages plant.
          </p>
        </div>
      </div>
    </Section>
  )
}
