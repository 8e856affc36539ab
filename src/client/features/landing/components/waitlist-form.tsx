import Loader2 from 'lucide-react/icons/loader-circle'
import type { RefObject } from 'react'

const input =
  'h-11 min-w-0 flex-1 rounded-lg border border-input bg-zinc-900 px-4 text-base text-foreground placeholder:text-zinc-400 focus-visible:border-ring sm:text-sm'

/**
 * The e-mail field of the waitlist bar. Spec section 4: the submit button works only once the text
 * has an '@'. Before, it shows disabled beside a sample address, so the box tells what it is for
 * (docs/decisions/054). Enter always reaches `onSubmit`, which decides what an address without one
 * gets.
 */
export function WaitlistForm({
  layout,
  email,
  pending,
  honeypot,
  onChange,
  onSubmit,
}: {
  layout: 'hero' | 'compact'
  email: string
  pending: boolean
  honeypot: RefObject<HTMLInputElement | null>
  onChange: (value: string) => void
  onSubmit: () => void
}) {
  const hero = layout === 'hero'
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        onSubmit()
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
        placeholder="you@example.com"
        value={email}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          // Without the button (and with the honeypot as a second field) the browser would not
          // submit on Enter by itself.
          if (e.key === 'Enter') {
            e.preventDefault()
            onSubmit()
          }
        }}
        className={input}
      />
      <button
        type="submit"
        disabled={pending || !email.includes('@')}
        className="inline-flex h-11 shrink-0 items-center gap-2 rounded-lg bg-primary px-5 text-sm font-semibold text-primary-foreground hover:bg-primary/90 disabled:cursor-not-allowed disabled:bg-zinc-700 disabled:text-zinc-300 aria-busy:disabled:bg-primary aria-busy:disabled:text-primary-foreground aria-busy:disabled:opacity-70"
        aria-busy={pending}
      >
        {pending && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
        {pending ? 'Joining...' : 'Join'}
      </button>
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
  )
}
