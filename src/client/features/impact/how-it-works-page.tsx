import ArrowLeft from 'lucide-react/icons/arrow-left'
import LineChart from 'lucide-react/icons/chart-line'
import Cpu from 'lucide-react/icons/cpu'
import Leaf from 'lucide-react/icons/leaf'
import Sprout from 'lucide-react/icons/sprout'
import { Link } from 'wouter'
import { ImpactCalculator } from './components/impact-calculator.tsx'
import { LocalEcoFigures } from './components/local-eco-figures.tsx'
import { MethodSources } from './components/method-sources.tsx'

const steps = [
  {
    icon: Cpu,
    title: 'Choose a lighter model',
    body: 'Loris eco mode answers with a small, efficient model. For most everyday questions it is as helpful as a frontier model at a fraction of the energy.',
  },
  {
    icon: LineChart,
    title: 'Measure every answer',
    body: 'For each reply we estimate energy and emissions with the open EcoLogits method (GenAI Impact): the model size, the tokens generated, the data centre efficiency and the electricity mix of the region.',
  },
  {
    icon: Leaf,
    title: 'Compare honestly',
    body: 'We compare each reply with the same answer from a standard frontier model (GPT-4o, world electricity mix) and show the difference as CO2 saved. Never negative, never inflated.',
  },
  {
    icon: Sprout,
    title: 'Give back',
    body: 'Every second message you send plants a tree with our reforestation partners, and 10 percent of every Loris Pro subscription goes to environmental causes.',
  },
]

export default function HowItWorksPage() {
  return (
    <main className="mx-auto max-w-4xl px-5 py-10 sm:py-16">
      <Link href="/" className="inline-flex items-center gap-2 text-sm text-primary hover:underline">
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back
      </Link>
      <h1 className="mt-8 text-3xl font-bold tracking-tight sm:text-4xl">How Loris works</h1>
      <p className="mt-4 max-w-2xl text-lg text-zinc-300">
        AI is useful, and it uses real electricity. Loris makes that cost visible, lowers it where it can, and
        gives back where it cannot. Here is our carbon-neutral approach and where we are heading.
      </p>
      <ol className="mt-10 grid gap-6 sm:grid-cols-2">
        {steps.map((s, i) => (
          <li key={s.title} className="rounded-lg border bg-card p-6">
            <s.icon className="size-6 text-primary" aria-hidden="true" />
            <h2 className="mt-4 font-semibold">
              {i + 1}. {s.title}
            </h2>
            <p className="mt-2 text-sm leading-relaxed text-zinc-300">{s.body}</p>
          </li>
        ))}
      </ol>
      <section className="mt-14" aria-labelledby="calculator">
        <h2 id="calculator" className="text-2xl font-semibold">
          What does an answer cost?
        </h2>
        <p className="mt-2 mb-6 max-w-2xl text-zinc-300">
          The same method Loris applies to every reply, for an answer of any length on each model we know.
        </p>
        <ImpactCalculator />
        <div className="mt-6">
          <LocalEcoFigures />
        </div>
      </section>
      <section className="mt-14" aria-labelledby="method">
        <h2 id="method" className="mb-4 text-2xl font-semibold">
          Our method and sources
        </h2>
        <MethodSources />
      </section>
      <section className="mt-14" aria-labelledby="goals">
        <h2 id="goals" className="text-2xl font-semibold">
          Our long-term goals
        </h2>
        <ul className="mt-4 list-disc space-y-2 pl-5 text-zinc-300">
          <li>Run the eco model on hardware powered by low-carbon electricity, and measure it directly.</li>
          <li>Publish our method and our totals every quarter, so anyone can check the numbers.</li>
          <li>Be carbon-negative as a company: remove more than our servers and models emit.</li>
        </ul>
      </section>
    </main>
  )
}
