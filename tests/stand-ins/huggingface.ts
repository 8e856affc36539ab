// Loopback stand-in for Hugging Face's file download protocol, as the eco model fetch meets it:
// `GET /<org>/<repo>/resolve/<revision>/<file>` answers 302 to a file host path, carrying the
// file's sha256 as `X-Linked-Etag` and its size as `X-Linked-Size` (what huggingface.co sends
// for LFS files); the file host honours `Range: bytes=N-` with 206 and Content-Range. Knobs:
// a throttle (bytes per second, so a browser can watch the progress bar), a connection cut
// after some bytes (to test resuming), and serving other bytes than the etag names.
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { closeServer, listen, sendText } from './http-helpers.ts'

export interface HfRequest {
  path: string
  range: string | null
  status: number
}

export interface HfStandIn {
  url: string
  /** The resolve URL of a file served under `repo` (e.g. 'loris/test-model') at `revision`. */
  resolveUrl(file: string): string
  requests: HfRequest[]
  /** Bytes per second for file bodies; 0 for no limit. */
  setThrottle(bytesPerSecond: number): void
  /** Cut the connection of the next file body after this many bytes (once). */
  cutNextAfter(bytes: number): void
  /** Serve these bytes from the file host instead of the real file (a corrupted download). */
  corrupt(bytes: Buffer | null): void
  close(): Promise<void>
}

const CHUNK = 16 * 1024

export async function startHuggingFaceStandIn(opts: {
  repo: string
  revision?: string
  files: Record<string, Buffer>
  port?: number
}): Promise<HfStandIn> {
  const revision = opts.revision ?? 'main'
  const byHash = new Map<string, Buffer>()
  const shaOf = new Map<string, string>()
  for (const [name, bytes] of Object.entries(opts.files)) {
    const sha = createHash('sha256').update(bytes).digest('hex')
    byHash.set(sha, bytes)
    shaOf.set(name, sha)
  }
  const requests: HfRequest[] = []
  let throttle = 0
  let cutAfter: number | null = null
  let corrupted: Buffer | null = null

  const resolvePrefix = `/${opts.repo}/resolve/${revision}/`

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const range = req.headers.range ?? null
    const record = (status: number) => requests.push({ path, range, status })
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      record(405)
      return sendText(res, 405, 'Method Not Allowed', 'text/plain')
    }
    if (path.startsWith(resolvePrefix)) {
      const name = decodeURIComponent(path.slice(resolvePrefix.length))
      const sha = shaOf.get(name)
      if (!sha) {
        record(404)
        res.writeHead(404, { 'x-error-code': 'EntryNotFound', 'content-type': 'text/plain' })
        return res.end('Entry not found')
      }
      record(302)
      res.writeHead(302, {
        location: `/repos/${sha}?file=${encodeURIComponent(name)}`,
        'x-linked-etag': `"${sha}"`,
        'x-linked-size': String(opts.files[name]?.length ?? 0),
        'x-repo-commit': revision,
        'content-length': '0',
      })
      return res.end()
    }
    const fileMatch = /^\/repos\/([0-9a-f]{64})$/.exec(path)
    const original = fileMatch ? byHash.get(fileMatch[1] as string) : undefined
    if (!original) {
      record(404)
      return sendText(res, 404, 'Not Found', 'text/plain')
    }
    const body = corrupted ?? original
    let start = 0
    if (range) {
      const m = /^bytes=(\d+)-$/.exec(range)
      if (!m) {
        record(416)
        res.writeHead(416, { 'content-range': `bytes */${body.length}` })
        return res.end()
      }
      start = Number(m[1])
      if (start >= body.length) {
        record(416)
        res.writeHead(416, { 'content-range': `bytes */${body.length}` })
        return res.end()
      }
    }
    const status = range ? 206 : 200
    record(status)
    res.writeHead(status, {
      'content-type': 'application/octet-stream',
      'content-length': String(body.length - start),
      'accept-ranges': 'bytes',
      etag: `"${fileMatch?.[1]}"`,
      ...(range ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    })
    if (req.method === 'HEAD') return res.end()
    const cut = cutAfter
    cutAfter = null
    let sent = 0
    for (let at = start; at < body.length; at += CHUNK) {
      if (res.destroyed) return
      const chunk = body.subarray(at, Math.min(body.length, at + CHUNK))
      if (cut !== null && sent + chunk.length > cut) {
        res.write(chunk.subarray(0, Math.max(0, cut - sent)))
        // A dropped connection mid-body, as a flaky network gives.
        await new Promise((r) => setTimeout(r, 20))
        res.destroy()
        return
      }
      if (!res.write(chunk)) await new Promise((r) => res.once('drain', r))
      sent += chunk.length
      if (throttle > 0) await new Promise((r) => setTimeout(r, (chunk.length / throttle) * 1000))
    }
    res.end()
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy())
  })
  const url = await listen(server, opts.port ?? 0, '127.0.0.1')
  return {
    url,
    resolveUrl: (file) => `${url}${resolvePrefix}${encodeURIComponent(file)}`,
    requests,
    setThrottle: (bps) => {
      throttle = bps
    },
    cutNextAfter: (bytes) => {
      cutAfter = bytes
    },
    corrupt: (bytes) => {
      corrupted = bytes
    },
    close: () => closeServer(server),
  }
}
