// Button-looking links of the landing page, written out rather than built with cn() so that
// tailwind-merge stays out of this page's bundle (under 90 KB of JS for /).
export const primaryLink =
  'inline-flex h-11 items-center gap-2 rounded-lg bg-primary px-6 font-semibold text-primary-foreground transition-colors hover:bg-emerald-400'
export const secondaryLink =
  'inline-flex h-11 items-center rounded-lg border border-white/20 bg-black/30 px-6 font-medium text-zinc-100 backdrop-blur transition-colors hover:bg-white/10'
export const textLink =
  'font-medium text-emerald-300 underline decoration-emerald-300/50 underline-offset-4 hover:decoration-emerald-300'
