import { CheckCircle2, Loader2 } from 'lucide-react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import { toast } from '#client/hooks/use-toast.ts'
import type { WaitlistRequest } from '#contract/waitlist.ts'
import { useJoinWaitlist, waitlistErrorText } from '../api/join-waitlist.ts'
import { useWaitlistDraft } from '../hooks/use-waitlist-draft.ts'

export type WaitlistLayout = 'hero' | 'compact'

// Two looks for one element, so typing carries on undisturbed when the layout switches: a large
// centred card while the hero is in view, a slim full-width bar once it is scrolled past.
const frame = {
  hero: 'mx-auto max-w-xl rounded-2xl border border-white/10 bg-zinc-950/85 p-4 shadow-2xl shadow-black/60 backdrop-blur-md sm:p-6',
  compact: 'border-t border-white/10 bg-zinc-950/90 px-4 py-3 backdrop-blur-md',
}
const inner = { hero: 'text-center', compact: 'mx-auto flex max-w-5xl items-center justify-between gap-6' }
const input =
  'h-11 min-w-0 flex-1 rounded-lg border border-input bg-zinc-900 px-4 text-base text-foreground placeholder:text-zinc-400 focus-visible:border-ring sm:text-sm'

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
            <form
              noValidate
              onSubmit={(e) => {
                e.preventDefault()
                submit()
              }}
              className={`relative flex gap-2 ${hero ? 'mt-3 sm:mt-4' : 'w-full md:max-w-md'}`}
            >
              <label htmlFor="waitlist-email" className="sr-only">
                Email address
              </label>
              <input
                id="waitlist-email"
                type="email"
                name="email"
                autoComplete="email"
                inputMode="email"
                placeholder={hero ? 'you@example.com' : 'E-mail for the waitlist'}
                value={email}
                onChange={(e) => change(e.target.value)}
                onKeyDown={(e) => {
                  // Enter must reach submit() even without the button (hidden until there is an '@').
                  if (e.key === 'Enter') {
                    e.preventDefault()
                    submit()
                  }
                }}
                className={input}
              />
              {email.includes('@') && (
                <button
                  type="submit"
                  disabled={status === 'pending'}
                  className="inline-flex h-11 shrink-0 items-center gap-2 rounded-lg bg-primary px-5 text-sm font-semibold text-primary-foreground hover:bg-primary/90 disabled:opacity-70"
                >
                  {status === 'pending' && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
                  {status === 'pending' ? 'Joining...' : 'Join'}
                </button>
              )}
              {/* Honeypot: hidden from people and skipped by Tab; bots that fill it are ignored. */}
              <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
                <label htmlFor="waitlist-website">Website</label>
                <input
                  id="waitlist-website"
                  ref={honeypot}
                  name="website"
                  type="text"
                  tabIndex={-1}
                  autoComplete="off"
                />
              </div>
            </form>
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
