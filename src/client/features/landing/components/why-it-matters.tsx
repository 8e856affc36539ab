import Eye from 'lucide-react/icons/eye'
import Gauge from 'lucide-react/icons/gauge'
import Sprout from 'lucide-react/icons/sprout'
import { Section } from './section.tsx'

const points = [
  {
    icon: Eye,
    title: 'The cost is invisible',
    body: 'Chat apps never show what an answer costs the planet. Loris estimates the energy and CO2 of every reply with the open EcoLogits method and shows it next to the answer.',
  },
  {
    icon: Gauge,
    title: 'Most questions need less',
    body: 'A quick fact, a summary or an e-mail draft does not need the largest model there is. A right-sized model answers them well with a fraction of the electricity.',
  },
  {
    icon: Sprout,
    title: 'What is left, we give back',
    body: 'Emissions we cannot avoid are answered with real trees: one planted with our partners for every second message you send.',
  },
]

/** Spec section 2: why the product matters. */
export function WhyItMatters() {
  return (
    <Section
      id="why"
      eyebrow="Why it matters"
      title="Every AI answer runs on electricity"
      intro="Data centres already use a noticeable share of the world's power, and AI is the fastest-growing part of it. Most of that electricity still comes from fossil fuels. We think you should see the cost of your questions, and have a greener way to ask them."
    >
      <ul className="mt-12 grid gap-5 md:grid-cols-3">
        {points.map((p) => (
          <li key={p.title} className="rounded-xl border bg-card p-6">
            <p.icon className="size-6 text-emerald-400" aria-hidden="true" />
            <h3 className="mt-4 text-lg font-semibold">{p.title}</h3>
            <p className="mt-2 leading-relaxed text-zinc-300">{p.body}</p>
          </li>
        ))}
      </ul>
    </Section>
  )
}
