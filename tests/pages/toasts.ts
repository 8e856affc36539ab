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

interface ToastRecord {
  /** Each toast shown, with when it appeared (ms since the page opened). */
  shown: string[]
  /** Each text read out to screen readers by a live region (Radix's announcement of a toast). */
  announced: string[]
}

/**
 * Keeps, in the page, each toast shown and each announcement, as they happen: a failed test can
 * tell a toast that never came from one that came and went unseen, and a test can check that a
 * toast was read out although its announcement lasts one second.
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript((selector) => {
    const record: ToastRecord = { shown: [], announced: [] }
    Object.assign(window, { __lorisToasts: record })
    const live = '[role=status][aria-live]:not([aria-live=off])'
    new MutationObserver((mutations) => {
      for (const mutation of mutations)
        for (const node of mutation.addedNodes) {
          // The announcement's text comes a frame after its element: whichever is added, the
          // region around it is read.
          const text = (node instanceof Element ? node : node.parentElement)?.closest(live)?.textContent
          if (text && record.announced.at(-1) !== text) record.announced.push(text)
          if (!(node instanceof Element)) continue
          // A toast raised before the toaster's code arrived comes in with its list.
          const toasts = node.matches(selector) ? [node] : [...node.querySelectorAll(selector)]
          for (const toast of toasts)
            record.shown.push(`${toast.textContent} (at ${Math.round(performance.now())} ms)`)
        }
    }).observe(document, { subtree: true, childList: true })
  }, TOASTS)
}

const readRecord = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __lorisToasts?: ToastRecord }).__lorisToasts ?? { shown: [], announced: [] },
  )

/** The toasts `recordToasts` saw shown, oldest first. */
export async function toastHistory(page: Page): Promise<string[]> {
  return (await readRecord(page)).shown
}

/** What live regions read out since the page opened, oldest first (toasts' announcements). */
export async function announcements(page: Page): Promise<string[]> {
  return (await readRecord(page)).announced
}
