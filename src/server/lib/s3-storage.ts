// Object storage in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Google Cloud Storage's
// interoperability API), for several nodes sharing their uploads (docs/decisions/060). Same
// contract as the disk (storage.ts): content-addressed keys, and nothing written or reused within
// the grace is removed, judged by the object's Last-Modified, which a touch (a copy onto itself)
// renews.
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import type { Env } from '#server/env.ts'
import { contentKey, OBJECT_GRACE_MS, type ObjectStorage } from './storage.ts'

const KEY = /^[0-9a-f]{64}$/
/** Objects live under this prefix, so the bucket may hold other things. */
export const S3_PREFIX = 'uploads/'

export type S3Settings = Pick<
  Env,
  | 'S3_BUCKET'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>

export function s3Client(env: S3Settings): S3Client {
  return new S3Client({
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
    // Checksums only where S3 requires them: several S3-compatible stores refuse the newer
    // default (aws-chunked bodies with trailing checksums). The key is the bytes' sha256 anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  })
}

const notFound = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404)

export function createS3Storage(
  client: S3Client,
  bucket: string,
  opts: { graceMs?: number } = {},
): ObjectStorage {
  const graceMs = opts.graceMs ?? OBJECT_GRACE_MS
  const fresh = (modified: Date | undefined) =>
    graceMs > 0 && modified !== undefined && Date.now() - modified.getTime() < graceMs
  const objectKey = (key: string) => {
    if (!KEY.test(key)) throw new Error(`not a storage key: ${key}`)
    return `${S3_PREFIX}${key}`
  }
  const head = async (key: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }))
    } catch (err) {
      if (notFound(err)) return null
      throw err
    }
  }
  const keep = async (key: string) => {
    const Key = objectKey(key)
    try {
      // S3 refuses a copy onto itself that changes nothing: the metadata is replaced with the
      // time of the touch, and the copy renews Last-Modified.
      await client.send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key,
          CopySource: `${bucket}/${Key}`,
          MetadataDirective: 'REPLACE',
          Metadata: { 'kept-at': String(Date.now()) },
        }),
      )
      return true
    } catch (err) {
      if (notFound(err)) return false
      throw err
    }
  }
  return {
    keep,
    has: async (key) => (await head(key)) !== null,
    async put(bytes) {
      const key = contentKey(bytes)
      if (await keep(key)) return key
      // A PUT is atomic in S3: readers see the whole object or none, so no temp name is needed.
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: objectKey(key), Body: bytes }))
      return key
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }))
        return res.Body ? await res.Body.transformToByteArray() : new Uint8Array()
      } catch (err) {
        if (notFound(err)) return null
        throw err
      }
    },
    async open(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }))
        // The response's socket, read as the stream is pulled; cancelling it closes the socket,
        // which ends the GET.
        return {
          size: res.ContentLength ?? null,
          body: res.Body ? res.Body.transformToWebStream() : new Blob([]).stream(),
        }
      } catch (err) {
        if (notFound(err)) return null
        throw err
      }
    },
    async removeIfStale(key) {
      const found = await head(key)
      if (!found || fresh(found.LastModified)) return false
      // A look, then the delete: S3 has no atomic move to judge the object on, as the disk's
      // rename does (decision 060 says what this leaves open and why it is small).
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }))
      return true
    },
    async *scan() {
      let ContinuationToken: string | undefined
      do {
        // One page (at most 1,000 keys) at a time, never the whole bucket's listing.
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: S3_PREFIX, ContinuationToken }),
        )
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(S3_PREFIX.length)
          if (key && KEY.test(key)) yield key
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
    },
  }
}

/**
 * Start-up check: the bucket answers and these keys may use it. Throws an error an operator can
 * act on (which bucket, where, what came back).
 */
export async function checkBucket(client: S3Client, env: S3Settings): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: env.S3_BUCKET }))
  } catch (err) {
    const status = err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined
    const why =
      status === 404
        ? 'no such bucket'
        : status === 403 || status === 401
          ? 'access denied (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)'
          : err instanceof Error
            ? err.message || err.name
            : String(err)
    const where = env.S3_ENDPOINT ?? `AWS S3 in ${env.S3_REGION}`
    throw new Error(
      `Object storage unreachable: bucket "${env.S3_BUCKET}" at ${where}: ${why}. ` +
        'Check S3_BUCKET, S3_ENDPOINT, S3_REGION and S3_FORCE_PATH_STYLE.',
    )
  }
}
