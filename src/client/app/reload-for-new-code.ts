// After a deploy, a tab left open still runs the old code, whose pages' chunks are gone from the
// server (each build names its own): loading one fails. Reloading fetches the new version. Part
// of the entry chunk, so kept free of anything the landing page does not already load.

const RELOADED_AT = 'loris-reloaded-for-new-code'
// One reload in this long at most: a chunk that fails again after it (a build that is broken, not
// stale) is left to the message, instead of reloading for ever.
const AT_MOST_ONCE_IN_MS = 60_000

let reloading = false

/** A page's or a component's code that could not be loaded (missing, not JavaScript, offline). */
export function isCodeLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  // Chromium, Firefox and Safari word a failed import() each their own way; Vite's preload, its own.
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    error.message,
  )
}

/**
 * Reloads the page to get the new code unless that was tried a moment ago in this tab. Returns
 * whether a reload is on its way (the caller shows nothing meanwhile) or not (it says so).
 */
export function reloadForNewCode(): boolean {
  if (reloading) return true
  try {
    const last = Number(sessionStorage.getItem(RELOADED_AT))
    if (last && Date.now() - last < AT_MOST_ONCE_IN_MS) return false
    sessionStorage.setItem(RELOADED_AT, String(Date.now()))
  } catch {
    // Without storage the guard cannot hold, and a reload might repeat for ever: don't.
    return false
  }
  reloading = true
  window.location.reload()
  return true
}
