import { Link } from 'wouter'

const link = 'text-zinc-300 hover:text-white hover:underline underline-offset-4'

/** Legal and site links. The bottom padding keeps it clear of the fixed waitlist bar. */
export function SiteFooter() {
  return (
    <footer className="border-t border-white/10">
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-5 pb-32 pt-10 text-sm sm:flex-row sm:items-center sm:justify-between">
        <p className="text-zinc-400">
          © {new Date().getFullYear()} Loris. AI chat that cares for the planet.
        </p>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-3">
            <li>
              <Link href="/howitworks" className={link}>
                How it works
              </Link>
            </li>
            <li>
              <Link href="/chat" className={link}>
                Chat
              </Link>
            </li>
            <li>
              <Link href="/privacy-policy?from=waitlist" className={link}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link href="/terms-of-service?from=waitlist" className={link}>
                Terms of Service
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  )
}
