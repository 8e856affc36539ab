// Loopback S3 that the real `@aws-sdk/client-s3` talks to in tests (path-style addressing): the
// operations object storage uses (HeadBucket, Put/Get/Head/Delete/CopyObject, ListObjectsV2), with
// S3's XML bodies, error codes and headers. Edit when the app starts using another operation.
import { createHash, createHmac } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { closeServer, listen, readBody } from './http-helpers.ts'

export interface StoredObject {
  bytes: Buffer
  lastModified: Date
  metadata: Record<string, string>
  etag: string
}

export interface ObjectRead {
  key: string
  size: number
  sent: number
  /** The whole object was sent. */
  completed: boolean
  /** The connection closed (after the whole object, or with the reader gone before it). */
  closed: boolean
}

export interface S3StandIn {
  url: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** Objects by key, in the one bucket. */
  objects: Map<string, StoredObject>
  /** Requests seen, as `OPERATION key` (e.g. `PutObject uploads/ab...`). */
  requests: string[]
  /** Every GetObject's body as it went: bytes sent so far, all of them, or the reader gone first. */
  reads: ObjectRead[]
  /** Moves an object's Last-Modified back, as if written `ms` ago. */
  age(key: string, ms: number): void
  /** How many keys a listing page holds at most (S3's 1,000 by default). */
  setPageSize(n: number): void
  /** The environment a Loris node needs to use this bucket. */
  env(): Record<string, string>
  close(): Promise<void>
}

const MAX_BODY = 64 * 2 ** 20
/** A GET's body goes out in chunks of this size, each as the socket takes it. */
const READ_CHUNK = 64 * 1024

/**
 * Sends the bytes as S3 does, as fast as the reader takes them: a reader that stops reading holds
 * the rest back (the socket's buffers fill), and one that goes away ends the read.
 */
function sendInChunks(res: ServerResponse, bytes: Buffer, read: ObjectRead) {
  res.once('close', () => {
    read.closed = true
  })
  const pump = () => {
    while (read.sent < bytes.length) {
      if (res.destroyed) return
      const chunk = bytes.subarray(read.sent, read.sent + READ_CHUNK)
      read.sent += chunk.length
      if (!res.write(chunk)) {
        res.once('drain', pump)
        return
      }
    }
    read.completed = true
    res.end()
  }
  pump()
}
const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`
const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function sendXml(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  const text = xml(body)
  res.writeHead(status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(text),
    ...headers,
  })
  res.end(text)
}

function sendError(res: ServerResponse, status: number, code: string, message: string, head = false) {
  if (head) {
    // HEAD answers carry no body: the SDK reads the status alone.
    res.writeHead(status, { 'x-amz-error-code': code })
    res.end()
    return
  }
  sendXml(res, status, `<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error>`)
}

const objectHeaders = (o: StoredObject): Record<string, string> => ({
  'content-type': 'application/octet-stream',
  'content-length': String(o.bytes.length),
  etag: o.etag,
  'last-modified': o.lastModified.toUTCString(),
  ...Object.fromEntries(Object.entries(o.metadata).map(([k, v]) => [`x-amz-meta-${k}`, v])),
})

const metadataOf = (req: IncomingMessage) =>
  Object.fromEntries(
    Object.entries(req.headers)
      .filter(([k]) => k.startsWith('x-amz-meta-'))
      .map(([k, v]) => [k.slice('x-amz-meta-'.length), String(v)]),
  )

export async function startS3StandIn(
  opts: { bucket?: string; accessKeyId?: string; secretAccessKey?: string } = {},
): Promise<S3StandIn> {
  const bucket = opts.bucket ?? 'loris-test'
  const accessKeyId = opts.accessKeyId ?? 'LORISTESTKEY'
  const secretAccessKey = opts.secretAccessKey ?? 'loris-test-secret-access-key'
  const objects = new Map<string, StoredObject>()
  const requests: string[] = []
  const reads: ObjectRead[] = []
  let pageSize = 1000

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://s3.local')
    const head = req.method === 'HEAD'
    // Signed requests only (Signature Version 4), with our key pair.
    const auth = req.headers.authorization ?? ''
    if (!auth.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`)) {
      return sendError(
        res,
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist.',
        head,
      )
    }
    if (!signatureMatches(req, secretAccessKey)) {
      return sendError(
        res,
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
        head,
      )
    }
    const [, name = '', ...rest] = url.pathname.split('/')
    const key = decodeURIComponent(rest.join('/'))
    if (name !== bucket)
      return sendError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist', head)

    if (!key) {
      if (head) {
        requests.push('HeadBucket')
        res.writeHead(200).end()
        return
      }
      if (req.method === 'GET' && url.searchParams.get('list-type') === '2') return list(url, res)
      return sendError(res, 405, 'MethodNotAllowed', `${req.method} on a bucket is not supported here`)
    }

    if (req.method === 'PUT' && req.headers['x-amz-copy-source']) return copy(req, key, res)
    switch (req.method) {
      case 'PUT': {
        requests.push(`PutObject ${key}`)
        const bytes = await readBody(req, MAX_BODY)
        const declared = req.headers['x-amz-content-sha256']
        if (declared && declared !== 'UNSIGNED-PAYLOAD' && declared !== sha256(bytes)) {
          return sendError(res, 400, 'XAmzContentSHA256Mismatch', 'The provided content hash does not match.')
        }
        const etag = `"${createHash('md5').update(bytes).digest('hex')}"`
        objects.set(key, { bytes, lastModified: new Date(), metadata: metadataOf(req), etag })
        res.writeHead(200, { etag }).end()
        return
      }
      case 'GET':
      case 'HEAD': {
        requests.push(`${head ? 'HeadObject' : 'GetObject'} ${key}`)
        const o = objects.get(key)
        if (!o)
          return sendError(
            res,
            404,
            head ? 'NotFound' : 'NoSuchKey',
            'The specified key does not exist.',
            head,
          )
        res.writeHead(200, objectHeaders(o))
        if (head) {
          res.end()
          return
        }
        const read = { key, size: o.bytes.length, sent: 0, completed: false, closed: false }
        reads.push(read)
        sendInChunks(res, o.bytes, read)
        return
      }
      case 'DELETE':
        requests.push(`DeleteObject ${key}`)
        objects.delete(key)
        res.writeHead(204).end()
        return
      default:
        return sendError(res, 405, 'MethodNotAllowed', `${req.method} is not supported here`, head)
    }
  }

  const copy = (req: IncomingMessage, key: string, res: ServerResponse) => {
    requests.push(`CopyObject ${key}`)
    const source = decodeURIComponent(String(req.headers['x-amz-copy-source'])).replace(/^\//, '')
    const prefix = `${bucket}/`
    const from = source.startsWith(prefix) ? objects.get(source.slice(prefix.length)) : undefined
    if (!from) return sendError(res, 404, 'NoSuchKey', 'The specified key does not exist.')
    const replace = req.headers['x-amz-metadata-directive'] === 'REPLACE'
    if (source.slice(prefix.length) === key && !replace) {
      return sendError(
        res,
        400,
        'InvalidRequest',
        "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
      )
    }
    const copied: StoredObject = {
      bytes: from.bytes,
      etag: from.etag,
      lastModified: new Date(),
      metadata: replace ? metadataOf(req) : { ...from.metadata },
    }
    objects.set(key, copied)
    sendXml(
      res,
      200,
      `<CopyObjectResult><LastModified>${copied.lastModified.toISOString()}</LastModified><ETag>${escapeXml(copied.etag)}</ETag></CopyObjectResult>`,
    )
  }

  const list = (url: URL, res: ServerResponse) => {
    requests.push('ListObjectsV2')
    const prefix = url.searchParams.get('prefix') ?? ''
    const token = url.searchParams.get('continuation-token')
    const after = token ? Buffer.from(token, 'base64url').toString() : ''
    const max = Math.min(Number(url.searchParams.get('max-keys') ?? 1000), pageSize)
    const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort()
    const page = keys.slice(0, max)
    const truncated = keys.length > page.length
    const contents = page
      .map((k) => {
        const o = objects.get(k) as StoredObject
        return `<Contents><Key>${escapeXml(k)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${escapeXml(o.etag)}</ETag><Size>${o.bytes.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`
      })
      .join('')
    const next = truncated ? Buffer.from(page.at(-1) as string).toString('base64url') : ''
    sendXml(
      res,
      200,
      `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${truncated ? `<NextContinuationToken>${next}</NextContinuationToken>` : ''}</ListBucketResult>`,
    )
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => sendError(res, 500, 'InternalError', String(err)))
  })
  const url = await listen(server, 0, '127.0.0.1')
  return {
    url,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    requests,
    reads,
    age(key, ms) {
      const o = objects.get(key)
      if (!o) throw new Error(`no object ${key}`)
      o.lastModified = new Date(o.lastModified.getTime() - ms)
    },
    setPageSize(n) {
      pageSize = n
    },
    env: () => ({
      S3_BUCKET: bucket,
      S3_ENDPOINT: url,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    close: () => closeServer(server),
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest()

/** Recomputes the request's AWS Signature Version 4 (headers and payload hash as sent). */
function signatureMatches(req: IncomingMessage, secret: string): boolean {
  const auth =
    /Credential=[^/]+\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)/.exec(
      req.headers.authorization ?? '',
    )
  const amzDate = req.headers['x-amz-date']
  if (!auth || typeof amzDate !== 'string') return false
  const [, date = '', region = '', service = '', signedHeaders = '', signature] = auth
  const [path = '/', query = ''] = (req.url ?? '/').split('?')
  const canonicalQuery = query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [k = '', v = ''] = pair.split('=')
      return `${rfc3986(decodeURIComponent(k))}=${rfc3986(decodeURIComponent(v))}`
    })
    .sort()
    .join('&')
  const headers = signedHeaders
    .split(';')
    .map(
      (n) =>
        `${n}:${String(req.headers[n] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('')
  const payload = req.headers['x-amz-content-sha256']
  const canonical = [req.method, path, canonicalQuery, headers, signedHeaders, payload].join('\n')
  const scope = `${date}/${region}/${service}/aws4_request`
  const digest = createHash('sha256').update(canonical).digest('hex')
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, digest].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request')
  return hmac(key, toSign).toString('hex') === signature
}
