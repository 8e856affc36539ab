import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parseEnv } from '#server/env.ts'
import { storageContract } from '../../../tests/helpers/storage-contract.ts'
import { type S3StandIn, startS3StandIn } from '../../../tests/stand-ins/s3.ts'
import { checkBucket, createS3Storage, S3_PREFIX, s3Client } from './s3-storage.ts'
import type { ObjectStorage } from './storage.ts'

let s3: S3StandIn
let storage: ObjectStorage
const settings = (over: Record<string, string> = {}) => parseEnv({ ...s3.env(), ...over })
beforeAll(async () => {
  s3 = await startS3StandIn()
})
afterAll(() => s3.close())
beforeEach(() => {
  s3.objects.clear()
  s3.requests.length = 0
  s3.reads.length = 0
  s3.setPageSize(1000)
  storage = createS3Storage(s3Client(settings()), s3.bucket)
})

const HOURS = 3 * 60 * 60_000
const age = (key: string) => s3.age(`${S3_PREFIX}${key}`, HOURS)

storageContract('S3 storage', {
  make: (opts) => createS3Storage(s3Client(settings()), s3.bucket, opts),
  age,
  modifiedAt: async (key) => s3.objects.get(`${S3_PREFIX}${key}`)?.lastModified.getTime() ?? 0,
})

describe('S3 storage', () => {
  it('keeps one object per content under its prefix; a second put touches it, not sending the bytes again', async () => {
    const bytes = new TextEncoder().encode('the loris sleeps by day')
    const key = await storage.put(bytes)
    expect([...s3.objects.keys()]).toEqual([`${S3_PREFIX}${key}`])
    expect(await storage.put(bytes)).toBe(key)
    // The second put copied the object onto itself (a touch), it did not send the bytes again.
    expect(s3.requests.filter((r) => r.startsWith('PutObject'))).toHaveLength(1)
    age(key)
    expect(await storage.removeIfStale(key)).toBe(true)
    expect(s3.objects.size).toBe(0)
  })

  it('streams an object as it is read, and a reader going away ends the GET', async () => {
    // An upload at its largest (25 MB).
    const size = 25 * 2 ** 20
    const key = await storage.put(randomBytes(size))
    const stored = await storage.open(key)
    expect(stored?.size).toBe(size)
    const reader = (stored as NonNullable<typeof stored>).body.getReader()
    const first = await reader.read()
    const read = s3.reads[0]
    // The first bytes came before the bucket had sent the whole object: nothing waited for it all.
    expect(first.value?.length).toBeGreaterThan(0)
    expect(read?.sent).toBeLessThan(size)
    const hash = createHash('sha256').update(first.value as Uint8Array)
    let chunks = 1
    let largest = first.value?.length ?? 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks++
      largest = Math.max(largest, value.length)
      hash.update(value)
    }
    expect(hash.digest('hex')).toBe(key)
    // A chunk in memory at a time, never the object.
    expect(chunks).toBeGreaterThan(25)
    expect(largest).toBeLessThanOrEqual(2 ** 20)
    expect(read?.completed).toBe(true)

    // A reader that stops after its first chunk and goes away (a client gone): the GET's
    // connection closes and the rest of the object is never sent.
    const again = await storage.open(key)
    const stopped = (again as NonNullable<typeof again>).body.getReader()
    await stopped.read()
    await stopped.cancel()
    const cut = s3.reads[1]
    await expect.poll(() => cut?.closed).toBe(true)
    expect(cut?.completed).toBe(false)
    expect(cut?.sent).toBeLessThan(size)
    expect(await storage.open('0'.repeat(64))).toBeNull()
  })

  it('scans every key a page at a time, and only its own', async () => {
    s3.setPageSize(2)
    const keys = await Promise.all([1, 2, 3, 4, 5].map((n) => storage.put(new Uint8Array([n, n]))))
    s3.objects.set('notes/readme.txt', {
      bytes: Buffer.from('x'),
      lastModified: new Date(),
      metadata: {},
      etag: '"x"',
    })
    s3.objects.set(`${S3_PREFIX}not-a-key`, {
      bytes: Buffer.from('x'),
      lastModified: new Date(),
      metadata: {},
      etag: '"x"',
    })
    const seen: string[] = []
    for await (const key of storage.scan()) seen.push(key)
    expect(seen.sort()).toEqual([...keys].sort())
    expect(s3.requests.filter((r) => r === 'ListObjectsV2')).toHaveLength(3)
  })
})

describe('the start-up check', () => {
  it('passes on a bucket these keys may use', async () => {
    const env = settings()
    await expect(checkBucket(s3Client(env), env)).resolves.toBeUndefined()
  })

  it('names the bucket, the address and what came back', async () => {
    const missing = settings({ S3_BUCKET: 'no-such-bucket' })
    await expect(checkBucket(s3Client(missing), missing)).rejects.toThrow(
      `Object storage unreachable: bucket "no-such-bucket" at ${s3.url}: no such bucket`,
    )
    const wrongKey = settings({ S3_ACCESS_KEY_ID: 'SOMEONEELSE' })
    await expect(checkBucket(s3Client(wrongKey), wrongKey)).rejects.toThrow('access denied')
    const wrongSecret = settings({ S3_SECRET_ACCESS_KEY: 'not-the-secret' })
    await expect(checkBucket(s3Client(wrongSecret), wrongSecret)).rejects.toThrow('access denied')
    const down = settings({ S3_ENDPOINT: 'http://127.0.0.1:1' })
    await expect(checkBucket(s3Client(down), down)).rejects.toThrow(
      /Object storage unreachable: bucket "loris-test" at http:\/\/127\.0\.0\.1:1\/?: .*ECONNREFUSED/,
    )
  })

  it('refuses half a key pair', () => {
    expect(() => parseEnv({ ...s3.env(), S3_SECRET_ACCESS_KEY: '' })).toThrow(
      'S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both',
    )
  })
})
