import { Link } from 'wouter'

/** Over the hero: the brand and the two places a visitor may want to go first. */
export function SiteHeader() {
  return (
    <header data-toasts-below className="absolute inset-x-0 top-0 z-20">
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-5 py-5">
        <Link
          href="/"
          className="flex items-center gap-2 text-lg font-bold tracking-tight"
          aria-label="Loris home"
        >
          <img src="/favicon.svg" alt="" width={28} height={28} className="size-7" />
          Loris
        </Link>
        <nav aria-label="Main" className="flex items-center gap-1 text-sm sm:gap-2">
          <Link
            href="/howitworks"
            className="hidden whitespace-nowrap rounded-md px-3 py-2 text-zinc-200 hover:text-white sm:block"
          >
            How it works
          </Link>
          <Link
            href="/chat"
            className="whitespace-nowrap rounded-md border border-white/20 bg-black/30 px-3 py-2 font-medium text-zinc-100 backdrop-blur hover:bg-white/10"
          >
            Open chat
          </Link>
        </nav>
      </div>
    </header>
  )
}
