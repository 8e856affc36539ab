// Fetches a link a person gave (or a model asked for) without letting it reach the server's own
// network. The name is resolved once; every address it resolves to must be public
// (public-address.ts), and the connection is made to the address that was checked, so a DNS
// answer that changes between the check and the connection (rebinding) gains nothing. Each
// redirect is checked the same way, at most 3; the whole fetch has 5 s and 2 MB; no cookies are
// sent or kept. Decision 065.
import { lookup as dnsLookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { AppError } from '#server/lib/app-error.ts'
import { isPublicAddress } from './public-address.ts'

export const FETCH_LIMITS = { redirects: 3, timeoutMs: 5_000, maxBytes: 2 * 1024 * 1024 }

export interface FetchedPage {
  /** The address the page was read from, after redirects. */
  url: string
  contentType: string
  bytes: Uint8Array
}

export interface GuardedFetchOptions {
  /**
   * Lets loopback and private addresses through: for tests that serve pages on loopback only
   * (READ_LINK_ALLOW_PRIVATE, refused in production by env.ts).
   */
  allowPrivate?: boolean | ((address: string) => boolean)
  signal?: AbortSignal
  /** What the request says it accepts. */
  accept?: string
  limits?: Partial<typeof FETCH_LIMITS>
}

const refused = (message: string) => new AppError('forbidden:link', message)
const unreachable = (message: string) => new AppError('bad_gateway:link', message)

/** The one address to connect to for `host`, after checking every address it resolves to. */
async function checkedAddress(
  host: string,
  allowPrivate: GuardedFetchOptions['allowPrivate'],
): Promise<{ address: string; family: number }> {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host
  let addresses: { address: string; family: number }[]
  try {
    addresses = await dnsLookup(bare, { all: true, verbatim: true })
  } catch {
    throw unreachable(`The address ${host} could not be found. Check the link and try again.`)
  }
  const first = addresses[0]
  if (!first) throw unreachable(`The address ${host} could not be found. Check the link and try again.`)
  const allowed = (address: string) =>
    isPublicAddress(address) ||
    (typeof allowPrivate === 'function' ? allowPrivate(address) : allowPrivate === true)
  if (!addresses.every((a) => allowed(a.address)))
    throw refused(`Loris does not open links to private or local network addresses (${host}).`)
  return first
}

function parseLink(link: string): URL {
  let url: URL
  try {
    url = new URL(link)
  } catch {
    throw new AppError('bad_request:link', `"${link.slice(0, 100)}" is not a web address.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused('Loris opens only http and https links.')
  if (url.username || url.password)
    throw refused('Loris does not open links that carry a user name or password.')
  return url
}

/** One request to `url`, connected to its checked address; the answer's head and body stream. */
function request(
  url: URL,
  target: { address: string; family: number },
  opts: { signal: AbortSignal; accept: string },
): Promise<http.IncomingMessage> {
  // The socket connects to the address checked above, whatever the name resolves to now.
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [target])
    else callback(null, target.address, target.family)
  }
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'GET',
      lookup,
      signal: opts.signal,
      agent: false,
      headers: {
        accept: opts.accept,
        'accept-encoding': 'identity',
        'user-agent': 'Loris link reader (+https://loris.eco)',
      },
    })
    req.on('response', resolve)
    req.on('error', reject)
    req.end()
  })
}

async function readBody(res: http.IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy()
    throw tooLarge(maxBytes)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) {
      res.destroy()
      throw tooLarge(maxBytes)
    }
    chunks.push(chunk)
  }
  return new Uint8Array(Buffer.concat(chunks))
}

const tooLarge = (maxBytes: number) =>
  new AppError(
    'payload_too_large:link',
    `This page is larger than ${maxBytes / 1024 / 1024} MB, more than Loris reads.`,
  )

export async function guardedFetch(link: string, opts: GuardedFetchOptions = {}): Promise<FetchedPage> {
  const limits = { ...FETCH_LIMITS, ...opts.limits }
  const timeout = AbortSignal.timeout(limits.timeoutMs)
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout
  let url = parseLink(link)
  try {
    for (let hop = 0; ; hop++) {
      const target = await checkedAddress(url.hostname, opts.allowPrivate)
      const res = await request(url, target, { signal, accept: opts.accept ?? 'text/html, text/plain;q=0.9' })
      const status = res.statusCode ?? 0
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume()
        if (hop >= limits.redirects)
          throw unreachable(
            `This link redirects more than ${limits.redirects} times; Loris stopped following it.`,
          )
        url = parseLink(new URL(res.headers.location, url).toString())
        continue
      }
      if (status < 200 || status >= 300) {
        res.resume()
        throw unreachable(`The page answered with status ${status}. Check that the link works in a browser.`)
      }
      const contentType = String(res.headers['content-type'] ?? '').toLowerCase()
      return { url: url.toString(), contentType, bytes: await readBody(res, limits.maxBytes) }
    }
  } catch (err) {
    if (err instanceof AppError) throw err
    if (timeout.aborted)
      throw unreachable(`The page took longer than ${limits.timeoutMs / 1000} seconds to answer.`)
    if (opts.signal?.aborted) throw err
    throw unreachable('The page could not be reached. Check the link and try again.')
  }
}
