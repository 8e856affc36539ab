// Fetches a model file once: streamed to `<file>.part`, resumed with an HTTP Range request after
// an interruption, checked against its sha256, then renamed into place (atomic on one file
// system), so a half-written file is never loaded. Speaks Hugging Face's resolve protocol: a
// 302 to a file host whose first answer carries the file's sha256 as X-Linked-Etag.
import { createHash, type Hash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'

export interface FetchProgress {
  bytes: number
  totalBytes: number | null
}

export type FetchFailureKind = 'offline' | 'http' | 'checksum' | 'disk'

/** Why a fetch failed, worded for the admin log; `kind` picks the words people see. */
export class ModelFetchError extends Error {
  constructor(
    readonly kind: FetchFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'ModelFetchError'
  }
}

export interface FetchModelOptions {
  url: string
  file: string
  /** Expected sha256 (lower-case hex); null: the host's X-Linked-Etag must give one. */
  sha256: string | null
  onProgress?: (p: FetchProgress) => void
  signal?: AbortSignal
  fetchImpl?: typeof fetch
}

const MAX_REDIRECTS = 5
const SHA256_HEX = /^[0-9a-f]{64}$/

/** Downloads `url` to `file` unless the file is already there; resumes a `.part` left behind. */
export async function fetchModel(opts: FetchModelOptions): Promise<{ file: string; bytes: number }> {
  const existing = await fs.stat(opts.file).catch(() => null)
  if (existing?.isFile()) return { file: opts.file, bytes: existing.size }
  await fs.mkdir(path.dirname(opts.file), { recursive: true }).catch((cause) => {
    throw new ModelFetchError('disk', `cannot create ${path.dirname(opts.file)}: ${String(cause)}`, { cause })
  })
  const part = `${opts.file}.part`
  let have = (await fs.stat(part).catch(() => null))?.size ?? 0

  const { response, linkedSha, linkedSize } = await request(opts, have)
  let expected = opts.sha256 ?? linkedSha
  if (!expected)
    throw new ModelFetchError(
      'checksum',
      `no checksum to check ${opts.url} against (set ECO_MODEL_SHA256, or use a host that sends X-Linked-Etag)`,
    )
  expected = expected.toLowerCase()

  let totalBytes = linkedSize
  if (response.status === 416) {
    // Nothing left to send: the part is complete (or longer than the file, then start over).
    await response.body?.cancel()
    const total = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? Number.NaN)
    if (Number.isFinite(total) && total === have) return finish(opts, part, expected, have, null)
    await fs.rm(part, { force: true })
    return fetchModel(opts)
  }
  if (response.status === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '')
    if (!range || Number(range[1]) !== have) {
      await response.body?.cancel()
      await fs.rm(part, { force: true })
      throw new ModelFetchError(
        'http',
        `the host answered a range we did not ask for from ${hostOf(opts.url)}`,
      )
    }
    if (range[3] !== '*') totalBytes = Number(range[3])
  } else if (response.status === 200) {
    // The host ignored Range: start over.
    have = 0
    const length = Number(response.headers.get('content-length'))
    if (Number.isFinite(length) && length > 0) totalBytes = length
  } else {
    await response.body?.cancel()
    throw new ModelFetchError('http', `${hostOf(opts.url)} answered HTTP ${response.status} for ${opts.url}`)
  }
  if (!response.body) throw new ModelFetchError('http', `${hostOf(opts.url)} sent no body`)

  const hash = createHash('sha256')
  if (have > 0) await hashFile(part, hash)
  let bytes = have
  opts.onProgress?.({ bytes, totalBytes })
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk)
      bytes += chunk.length
      opts.onProgress?.({ bytes, totalBytes })
      done(null, chunk)
    },
  })
  try {
    await pipeline(
      Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>),
      counter,
      createWriteStream(part, { flags: have > 0 ? 'a' : 'w' }),
      { signal: opts.signal },
    )
  } catch (cause) {
    // The part stays: the next attempt resumes from where this one stopped.
    if (isDiskError(cause))
      throw new ModelFetchError('disk', `cannot write ${part}: ${String(cause)}`, { cause })
    throw new ModelFetchError(
      'offline',
      `the download from ${hostOf(opts.url)} broke off at ${bytes} bytes`,
      { cause },
    )
  }
  return finish(opts, part, expected, bytes, hash)
}

async function finish(
  opts: FetchModelOptions,
  part: string,
  expected: string,
  bytes: number,
  hash: Hash | null,
): Promise<{ file: string; bytes: number }> {
  let digest: string
  if (hash) digest = hash.digest('hex')
  else {
    const h = createHash('sha256')
    await hashFile(part, h)
    digest = h.digest('hex')
  }
  if (digest !== expected) {
    // A corrupt or different file: resuming it would never help.
    await fs.rm(part, { force: true })
    throw new ModelFetchError(
      'checksum',
      `the file from ${opts.url} has sha256 ${digest}, expected ${expected} (ECO_MODEL_SHA256)`,
    )
  }
  await fs.rename(part, opts.file)
  return { file: opts.file, bytes }
}

async function request(
  opts: FetchModelOptions,
  from: number,
): Promise<{ response: Response; linkedSha: string | null; linkedSize: number | null }> {
  const doFetch = opts.fetchImpl ?? fetch
  let url = opts.url
  let linkedSha: string | null = null
  let linkedSize: number | null = null
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let response: Response
    try {
      response = await doFetch(url, {
        redirect: 'manual',
        headers: from > 0 ? { Range: `bytes=${from}-` } : {},
        signal: opts.signal,
      })
    } catch (cause) {
      throw new ModelFetchError('offline', `cannot reach ${hostOf(url)}: ${causeText(cause)}`, { cause })
    }
    // Hugging Face names the LFS object (its sha256) and size on the resolve answer.
    const etag = response.headers.get('x-linked-etag')?.replace(/^W\//, '').replaceAll('"', '').toLowerCase()
    if (etag && SHA256_HEX.test(etag)) linkedSha ??= etag
    const size = Number(response.headers.get('x-linked-size'))
    if (Number.isFinite(size) && size > 0) linkedSize ??= size
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel()
      url = new URL(location, url).toString()
      continue
    }
    return { response, linkedSha, linkedSize }
  }
  throw new ModelFetchError('http', `too many redirects from ${hostOf(opts.url)}`)
}

async function hashFile(file: string, hash: Hash) {
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

function causeText(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err))
}

function isDiskError(err: unknown): boolean {
  const code = (err as { code?: string })?.code
  return code === 'ENOSPC' || code === 'EACCES' || code === 'EROFS' || code === 'EPERM'
}
