// Fetches a model file once: streamed to `<file>.part`, resumed with an HTTP Range request after
// an interruption, checked against its sha256, then renamed into place (atomic on one file
// system), so a half-written file is never loaded. Speaks Hugging Face's resolve protocol: a
// 302 to a file host whose first answer carries the file's sha256 as X-Linked-Etag.
// One process downloads at a time (download-lock.ts); the checksum is of the file on disk, and a
// sidecar `<file>.verified.json` records it: a model file without a matching record (left by a
// crash, a race, an older version or placed by hand) is checked again, never trusted as it is.
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { acquireDownloadLock, type DownloadLock } from './download-lock.ts'

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

/** What the sidecar records of a file whose sha256 was checked on disk. */
interface Verified {
  sha256: string
  /** Where it came from: with no configured checksum, the host of this URL vouched for it. */
  url: string
  bytes: number
  mtimeMs: number
}

const MAX_REDIRECTS = 5
const SHA256_HEX = /^[0-9a-f]{64}$/

/** Downloads `url` to `file` unless a verified copy is there; resumes a `.part` left behind. */
export async function fetchModel(opts: FetchModelOptions): Promise<{ file: string; bytes: number }> {
  for (;;) {
    const verified = await verifiedBytes(opts)
    if (verified !== null) return { file: opts.file, bytes: verified }
    await fs.mkdir(path.dirname(opts.file), { recursive: true }).catch((cause) => {
      throw new ModelFetchError('disk', `cannot create ${path.dirname(opts.file)}: ${String(cause)}`, {
        cause,
      })
    })
    // Another process downloading: follow its progress, then use what it verified.
    const lock = await acquireDownloadLock(`${opts.file}.lock`, {
      signal: opts.signal,
      onWait: async () => {
        const bytes = (await fs.stat(partOf(opts)).catch(() => null))?.size ?? 0
        opts.onProgress?.({ bytes, totalBytes: null })
      },
    }).catch((cause) => {
      if (opts.signal?.aborted) throw cause
      throw new ModelFetchError('disk', `cannot lock ${opts.file}.lock: ${String(cause)}`, { cause })
    })
    try {
      const done = (await verifiedBytes(opts)) ?? (await checkExisting(opts)) ?? (await download(opts, lock))
      // null: another process took the lock over as stale; wait for it like any other owner.
      if (done !== null) return { file: opts.file, bytes: done }
    } finally {
      await lock.release()
    }
  }
}

const partOf = (opts: FetchModelOptions) => `${opts.file}.part`
const sidecarOf = (opts: FetchModelOptions) => `${opts.file}.verified.json`

/** The file's size when its sidecar vouches for it under the current settings, else null. */
async function verifiedBytes(opts: FetchModelOptions): Promise<number | null> {
  const stat = await fs.stat(opts.file).catch(() => null)
  if (!stat?.isFile()) return null
  let record: Verified
  try {
    record = JSON.parse(await fs.readFile(sidecarOf(opts), 'utf8')) as Verified
  } catch {
    return null
  }
  const sameSource = opts.sha256 ? record.sha256 === opts.sha256.toLowerCase() : record.url === opts.url
  // Size and mtime: the file is the one that was checked, not one written or copied over it since.
  return sameSource && record.bytes === stat.size && record.mtimeMs === stat.mtimeMs ? stat.size : null
}

/**
 * A model file with no valid record: checked on disk (without the network when the checksum is
 * configured) and recorded if right, else removed so it is fetched again. Null when there is none.
 */
async function checkExisting(opts: FetchModelOptions): Promise<number | null> {
  if (!(await fs.stat(opts.file).catch(() => null))?.isFile()) return null
  let expected = opts.sha256?.toLowerCase() ?? null
  if (!expected) {
    const { response, linkedSha } = await request(opts, 0)
    await response.body?.cancel()
    expected = linkedSha
  }
  if (expected && (await sha256Of(opts.file)) === expected) return record(opts, expected)
  await fs.rm(sidecarOf(opts), { force: true })
  await fs.rm(opts.file, { force: true })
  return null
}

/** Downloads into the part and renames it into place; null if the lock was lost meanwhile. */
async function download(opts: FetchModelOptions, lock: DownloadLock): Promise<number | null> {
  const part = partOf(opts)
  let have = (await fs.stat(part).catch(() => null))?.size ?? 0

  const { response, linkedSha, linkedSize } = await request(opts, have)
  let expected = opts.sha256 ?? linkedSha
  if (!expected)
    throw new ModelFetchError(
      'checksum',
      `no checksum to check ${opts.url} against (set its SHA256 variable, or use a host that sends X-Linked-Etag)`,
    )
  expected = expected.toLowerCase()

  let totalBytes = linkedSize
  if (response.status === 416) {
    // Nothing left to send: the part is complete (or longer than the file, then start over).
    await response.body?.cancel()
    const total = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? Number.NaN)
    if (Number.isFinite(total) && total === have) return finish(opts, lock, expected)
    await fs.rm(part, { force: true })
    return download(opts, lock)
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

  let bytes = have
  opts.onProgress?.({ bytes, totalBytes })
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
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
  return finish(opts, lock, expected)
}

/** Checks the part as it is on disk (not the bytes this process streamed), then renames it. */
async function finish(opts: FetchModelOptions, lock: DownloadLock, expected: string): Promise<number | null> {
  const part = partOf(opts)
  const digest = await sha256Of(part)
  if (digest !== expected) {
    // A corrupt or different file: resuming it would never help.
    await fs.rm(part, { force: true })
    throw new ModelFetchError(
      'checksum',
      `the file from ${opts.url} has sha256 ${digest}, expected ${expected}`,
    )
  }
  // Taken over as stale meanwhile: the new owner renames (and checks) the part, not this process.
  if (!(await lock.held())) return null
  await fs.rm(sidecarOf(opts), { force: true })
  await fs.rename(part, opts.file)
  return record(opts, expected)
}

/** Writes the sidecar (atomically) for the file in place, checked to have `sha256`; its size. */
async function record(opts: FetchModelOptions, sha256: string): Promise<number> {
  const stat = await fs.stat(opts.file)
  const verified: Verified = { sha256, url: opts.url, bytes: stat.size, mtimeMs: stat.mtimeMs }
  const temp = `${sidecarOf(opts)}.${process.pid}.tmp`
  try {
    await fs.writeFile(temp, JSON.stringify(verified))
    await fs.rename(temp, sidecarOf(opts))
  } catch (cause) {
    throw new ModelFetchError('disk', `cannot write ${sidecarOf(opts)}: ${String(cause)}`, { cause })
  }
  return stat.size
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

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
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
