// Small node:http helpers shared by the loopback stand-ins (no framework on purpose: the stand-ins
// must behave like remote APIs at the byte level, including broken connections).
import type { IncomingMessage, Server, ServerResponse } from 'node:http'

export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`request body exceeds ${limitBytes} bytes`)
  }
}

// Reads the whole body but stops buffering at the limit so a runaway client cannot exhaust memory.
export function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > limitBytes) return Promise.reject(new BodyTooLargeError(limitBytes))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limitBytes) {
        req.removeAllListeners('data')
        req.resume()
        reject(new BodyTooLargeError(limitBytes))
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, JSON.stringify(body), 'application/json')
}

export function sendText(res: ServerResponse, status: number, text: string, contentType: string): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

export function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

export interface MultipartFile {
  field: string
  filename: string
  contentType: string
  bytes: number
}

export interface MultipartSummary {
  fields: Record<string, string>
  files: MultipartFile[]
}

// undici's multipart parser (behind Response#formData) is the same one fetch uses to build the body,
// so it agrees with the SDKs on boundaries and encodings without a hand-written parser.
export async function parseMultipart(body: Buffer, contentType: string): Promise<MultipartSummary> {
  const form = await new Response(new Uint8Array(body), {
    headers: { 'content-type': contentType },
  }).formData()
  const summary: MultipartSummary = { fields: {}, files: [] }
  for (const [field, value] of form) {
    if (typeof value === 'string') summary.fields[field] = value
    else summary.files.push({ field, filename: value.name, contentType: value.type, bytes: value.size })
  }
  return summary
}

export function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      const address = server.address()
      if (address === null || typeof address === 'string') return reject(new Error('no TCP address'))
      resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}`)
    })
  })
}

// close() alone waits for idle keep-alive sockets held by fetch; cut them so tests end promptly.
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()))
    server.closeAllConnections()
  })
}
