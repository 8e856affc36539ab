import CheckCircle2 from 'lucide-react/icons/circle-check'
import { useCallback, useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import { toast } from '#client/hooks/use-toast.ts'
import type { WaitlistRequest } from '#contract/waitlist.ts'
import { useJoinWaitlist, waitlistErrorText } from '../api/join-waitlist.ts'
import { useWaitlistDraft } from '../hooks/use-waitlist-draft.ts'
import { WaitlistForm } from './waitlist-form.tsx'

export type WaitlistLayout = 'hero' | 'compact'

// Two looks for one element, so typing carries on undisturbed when the layout switches: a large
// centred card while the hero is in view, a slim full-width bar once it is scrolled past.
const frame = {
  hero: 'mx-auto max-w-xl rounded-2xl border border-white/10 bg-zinc-950/85 p-4 shadow-2xl shadow-black/60 backdrop-blur-md sm:p-6',
  compact: 'border-t border-white/10 bg-zinc-950/90 px-4 py-3 backdrop-blur-md',
}
const inner = { hero: 'text-center', compact: 'mx-auto flex max-w-5xl items-center justify-between gap-6' }

/** Spec sections 2 and 4: the fixed bottom waitlist bar. */
export function WaitlistBar({ layout }: { layout: WaitlistLayout }) {
  const { email, change, clear } = useWaitlistDraft()
  const [joinedAs, setJoinedAs] = useState<string | null>(null)
  const honeypot = useRef<HTMLInputElement>(null)
  const thanks = useRef<HTMLParagraphElement>(null)
  const hero = layout === 'hero'

  const onSuccess = useCallback(
    (body: WaitlistRequest) => {
      setJoinedAs(body.email)
      clear()
    },
    [clear],
  )
  const onError = useCallback((err: unknown) => {
    toast({ title: 'Error', description: waitlistErrorText(err), variant: 'destructive' })
  }, [])
  const { status, join } = useJoinWaitlist({ onSuccess, onError })

  // The form is gone after success: keep keyboard and screen-reader users with the message.
  useEffect(() => {
    if (joinedAs) thanks.current?.focus()
  }, [joinedAs])

  function submit() {
    if (status === 'pending') return
    if (!email.includes('@')) {
      toast({
        title: 'Invalid email',
        description: 'Please enter a valid email address.',
        variant: 'destructive',
      })
      return
    }
    void join({ email: email.trim(), website: honeypot.current?.value || undefined })
  }

  return (
    <aside
      aria-labelledby="waitlist-heading"
      data-testid="waitlist-bar"
      data-layout={layout}
      className={`fixed inset-x-0 bottom-0 z-40 pb-[env(safe-area-inset-bottom)] ${hero ? 'px-3 sm:px-6 sm:pb-8' : ''}`}
    >
      <div className={`${frame[layout]} ${hero ? 'mb-3 sm:mb-0' : ''}`}>
        <div className={inner[layout]}>
          <div className={hero ? '' : 'sr-only md:not-sr-only'}>
            <h2
              id="waitlist-heading"
              className={hero ? 'text-lg font-semibold sm:text-xl' : 'text-sm font-semibold'}
            >
              {joinedAs ? "You're on the waitlist" : 'Join the waitlist'}
            </h2>
            <p
              className={
                hero
                  ? `mt-1 text-sm text-zinc-300 ${joinedAs ? 'hidden' : 'hidden sm:block'}`
                  : 'text-sm text-zinc-400'
              }
            >
              {hero
                ? 'Early access to new eco models, and a short note each quarter on the CO2 our community saved.'
                : 'Early access to new eco models.'}
            </p>
          </div>
          <div
            aria-live="polite"
            className={joinedAs ? (hero ? 'mt-3' : 'w-full md:ml-auto md:w-auto') : 'sr-only'}
          >
            {joinedAs && (
              <p
                ref={thanks}
                tabIndex={-1}
                data-testid="waitlist-thanks"
                className="flex items-center justify-center gap-2 text-sm text-zinc-100 focus-visible:outline-none md:justify-start"
              >
                <CheckCircle2 className="size-5 shrink-0 text-primary" aria-hidden="true" />
                <span>
                  Thanks for joining! We'll write to <strong className="break-words">{joinedAs}</strong> when
                  there's news.
                </span>
              </p>
            )}
          </div>
          {!joinedAs && (
            <WaitlistForm
              layout={layout}
              email={email}
              pending={status === 'pending'}
              honeypot={honeypot}
              onChange={change}
              onSubmit={submit}
            />
          )}
          {hero && !joinedAs && (
            <p className="mt-3 text-xs text-zinc-400">
              No spam, unsubscribe any time. See our{' '}
              <Link href="/privacy-policy" className="underline underline-offset-2 hover:text-zinc-200">
                Privacy Policy
              </Link>
              .
            </p>
          )}
        </div>
      </div>
    </aside>
  )
}
