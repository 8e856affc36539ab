import { Link } from 'wouter'
import { textLink } from './link-styles.ts'
import { Section } from './section.tsx'

// The three chat modes of spec section 1, with the left border colour each reply carries.
const modes = [
  {
    name: 'Gemini',
    tag: 'Default',
    border: 'border-l-white',
    body: "Google's Gemini models for broad, capable answers. A good all-rounder for research, writing and code.",
  },
  {
    name: 'Loris eco mode',
    tag: 'Lowest carbon',
    border: 'border-l-emerald-500',
    body: 'Our efficient eco model. The same chat at a fraction of the energy, and the biggest CO2 saving on every reply.',
  },
  {
    name: 'ChatGPT',
    tag: 'OpenAI',
    border: 'border-l-black',
    body: "OpenAI's GPT model, for when you want its particular style or are used to it.",
  },
]

/** Spec section 2: the eco switch. */
export function EcoSwitch() {
  return (
    <Section
      id="eco-switch"
      eyebrow="The eco switch"
      title="One switch between powerful and planet-friendly"
      intro={
        <>
          Pick a mode from the menu beside the message box. Flip on eco mode for everyday questions, switch
          back when a task needs a frontier model. Each reply is marked with its model, and the savings add up
          in your badge.{' '}
          <Link href="/howitworks" className={textLink}>
            How we measure
          </Link>
        </>
      }
    >
      <ul className="mt-12 grid gap-5 md:grid-cols-3">
        {modes.map((m) => (
          <li key={m.name} className={`rounded-xl border border-l-4 bg-zinc-800/60 p-6 ${m.border}`}>
            <p className="text-xs font-semibold uppercase tracking-wider text-zinc-400">{m.tag}</p>
            <h3 className="mt-2 text-lg font-semibold">{m.name}</h3>
            <p className="mt-2 leading-relaxed text-zinc-300">{m.body}</p>
          </li>
        ))}
      </ul>
    </Section>
  )
}
