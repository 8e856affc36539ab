import { useRef } from 'react'
import { Contact } from './components/contact.tsx'
import { EcoSwitch } from './components/eco-switch.tsx'
import { Hero } from './components/hero.tsx'
import { Partners } from './components/partners.tsx'
import { SiteFooter } from './components/site-footer.tsx'
import { SiteHeader } from './components/site-header.tsx'
import { WaitlistBar } from './components/waitlist-bar.tsx'
import { WhyItMatters } from './components/why-it-matters.tsx'
import { useIsVisible } from './hooks/use-is-visible.ts'

// Spec section 9: the hero counts as visible while at least half of it is on screen.
export const HERO_VISIBLE_RATIO = 0.5

/** Spec section 2: the landing page at /. */
export default function LandingPage() {
  const hero = useRef<HTMLElement>(null)
  const heroVisible = useIsVisible(hero, HERO_VISIBLE_RATIO)
  return (
    <div className="relative overflow-x-clip">
      <SiteHeader />
      <main>
        <Hero ref={hero} />
        <WhyItMatters />
        <EcoSwitch />
        <Partners />
        <Contact />
      </main>
      <SiteFooter />
      <WaitlistBar layout={heroVisible ? 'hero' : 'compact'} />
    </div>
  )
}
