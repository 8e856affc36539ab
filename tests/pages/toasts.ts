import type { Page } from 'playwright-core'

// A toast is the notification a person sees: Radix's list item in the "Notifications (F8)"
// region, up for 5 s. Not role=status: the one status element with a toast's text is Radix's
// announcement for screen readers, removed after one second, which a loaded machine's polling
// can miss altogether. And not by role at all: while a dialog is open, everything outside it,
// the region included, is aria-hidden, yet the toast shows over the dialog.
const TOASTS = '[role=region][aria-label="Notifications (F8)"] li'

/** The toast on screen showing every one of `texts` (title and description). */
export function toastOnScreen(page: Page, ...texts: (string | RegExp)[]) {
  let toasts = page.locator(TOASTS)
  for (const text of texts) toasts = toasts.filter({ hasText: text })
  return toasts.first()
}

/** The texts of the toasts on screen now, for a failed test's report. */
export function toastTexts(page: Page): Promise<string[]> {
  return page.locator(TOASTS).allTextContents()
}

/**
 * Keeps, in the page, each toast's text and when it appeared (ms since the page opened), so a
 * failed test can tell a toast that never came from one that came and went unseen.
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript((selector) => {
    const seen: string[] = []
    Object.assign(window, { __lorisToasts: seen })
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue
          // A toast raised before the toaster's code arrived comes in with its list.
          const toasts = node.matches(selector) ? [node] : [...node.querySelectorAll(selector)]
          for (const toast of toasts)
            seen.push(`${toast.textContent} (at ${Math.round(performance.now())} ms)`)
        }
    }).observe(document, { subtree: true, childList: true })
  }, TOASTS)
}

/** What `recordToasts` kept, oldest first. */
export function toastHistory(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __lorisToasts?: string[] }).__lorisToasts ?? [])
}
