// A request held as on a slow connection: the server answers it at once, and the page gets that
// answer only when the test releases it. For the races where an answer asked before something the
// person did lands after it (docs/architecture.md, "A late answer never hides what was sent").
import type { Page, Request } from 'playwright-core'

export interface HeldRequest {
  /** The held request, once the page has made it and the server has answered it. */
  readonly request: Promise<Request>
  /** Whether a request was held (a test that held nothing would prove nothing). */
  readonly taken: () => boolean
  /** Hands the server's answer to the page, if it still wants it; resolves once handed or refused. */
  release(): Promise<void>
}

/** Holds the next request of `method` whose address `matches`; every later one goes through. */
export async function holdNextRequest(
  page: Page,
  matches: (url: URL) => boolean,
  method = 'GET',
): Promise<HeldRequest> {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let onAnswered: (request: Request) => void = () => {}
  const request = new Promise<Request>((resolve) => {
    onAnswered = resolve
  })
  let taken = false
  let delivered: Promise<void> = Promise.resolve()
  await page.route(matches, async (route) => {
    if (taken || route.request().method() !== method) return route.continue()
    taken = true
    const response = await route.fetch()
    onAnswered(route.request())
    // The page may have given the request up (cancelled it) by then.
    delivered = released.then(() => route.fulfill({ response })).catch(() => undefined)
    await delivered
  })
  return {
    request,
    taken: () => taken,
    async release() {
      release()
      await delivered
    },
  }
}
