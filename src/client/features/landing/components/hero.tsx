import ArrowRight from 'lucide-react/icons/arrow-right'
import Leaf from 'lucide-react/icons/leaf'
import { type Ref, useState } from 'react'
import { Link } from 'wouter'
import { useReducedMotion } from '../hooks/use-reduced-motion.ts'
import { HeroVideo, VideoPauseButton } from './hero-video.tsx'
import { primaryLink, secondaryLink } from './link-styles.ts'

/** Spec section 2: the hero with its video. The waitlist bar watches `ref` (50 percent rule). */
export function Hero({ ref }: { ref: Ref<HTMLElement> }) {
  const reducedMotion = useReducedMotion()
  const [paused, setPaused] = useState(false)
  return (
    <section
      ref={ref}
      aria-labelledby="hero-heading"
      data-testid="hero"
      className="relative isolate flex min-h-dvh items-center overflow-hidden"
    >
      <HeroVideo playing={!reducedMotion && !paused} reducedMotion={reducedMotion} />
      {/* Keeps the text readable on every frame and fades the clip into the page below. */}
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-[radial-gradient(ellipse_at_30%_40%,rgb(9_9_11/0.15),rgb(9_9_11/0.7))]"
      />
      <div
        aria-hidden="true"
        className="absolute inset-x-0 bottom-0 h-40 bg-gradient-to-b from-transparent to-background"
      />
      <div className="relative mx-auto w-full max-w-5xl px-5 pb-56 pt-24 sm:pb-72 sm:pt-28">
        <p className="inline-flex items-center gap-2 rounded-full border border-primary/30 bg-primary/10 px-3 py-1 text-sm font-medium text-emerald-300">
          <Leaf className="size-4" aria-hidden="true" /> AI chat that cares for the planet
        </p>
        <h1
          id="hero-heading"
          className="mt-5 max-w-3xl text-[2rem] leading-tight font-bold tracking-tight text-balance sm:text-6xl sm:leading-none"
        >
          Ask anything. Leave a lighter footprint.
        </h1>
        <p className="mt-5 max-w-2xl text-base text-zinc-200 sm:text-xl">
          Gemini, ChatGPT and our low-carbon eco model in one chat. Every reply shows the CO2 it saved, and
          every second message plants a tree.
        </p>
        <div className="mt-8 flex flex-wrap items-center gap-3">
          <Link href="/chat" className={primaryLink}>
            Start chatting <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
          <Link href="/howitworks" className={secondaryLink}>
            How it works
          </Link>
          {!reducedMotion && <VideoPauseButton paused={paused} onToggle={() => setPaused((p) => !p)} />}
        </div>
      </div>
    </section>
  )
}
