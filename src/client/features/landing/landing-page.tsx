import { ArrowRight, Leaf } from 'lucide-react'
import { Link } from 'wouter'

export default function LandingPage() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-5xl flex-col justify-center px-5 py-16">
      <p className="inline-flex items-center gap-2 text-sm font-medium text-primary">
        <Leaf className="size-4" aria-hidden="true" /> AI chat that cares for the planet
      </p>
      <h1 className="mt-4 text-4xl font-bold tracking-tight sm:text-6xl">Loris</h1>
      <p className="mt-6 max-w-2xl text-lg text-zinc-300">
        Chat with Gemini, ChatGPT or our low-carbon eco model. See the CO2 every answer saves, and plant trees
        as you go. 10 percent of every subscription goes to environmental causes.
      </p>
      <div className="mt-8 flex flex-wrap gap-4">
        <Link
          href="/chat"
          className="inline-flex h-11 items-center gap-2 rounded-md bg-primary px-6 font-medium text-primary-foreground hover:bg-primary/90"
        >
          Start chatting <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
        <Link
          href="/howitworks"
          className="inline-flex h-11 items-center rounded-md border px-6 hover:bg-accent"
        >
          How it works
        </Link>
      </div>
    </main>
  )
}
