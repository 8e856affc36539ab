import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parseEnv } from '#server/env.ts'
import { type S3StandIn, startS3StandIn } from '../../../tests/stand-ins/s3.ts'
import { createS3Storage, S3_PREFIX, s3Client } from './s3-storage.ts'
import { createDiskStorage } from './storage.ts'
import { copyStore } from './storage-copy.ts'

let s3: S3StandIn
let dataDir: string
beforeAll(async () => {
  s3 = await startS3StandIn()
})
afterAll(() => s3.close())
beforeEach(async () => {
  s3.objects.clear()
  dataDir = await mkdtemp(join(tmpdir(), 'loris-migrate-'))
  return () => rm(dataDir, { recursive: true, force: true })
})

const bucket = () => createS3Storage(s3Client(parseEnv(s3.env())), s3.bucket)
async function diskWith(n: number) {
  const disk = createDiskStorage(join(dataDir, 'uploads'))
  const keys: string[] = []
  for (let i = 0; i < n; i++) keys.push(await disk.put(new TextEncoder().encode(`file number ${i}`)))
  return { disk, keys }
}

describe('copying the disk store into a bucket', () => {
  it('copies every object, and a second run (a resumed one) copies only what is missing', async () => {
    const { disk, keys } = await diskWith(20)
    const first = await copyStore(disk, bucket())
    expect(first).toEqual({ copied: 20, skipped: 0, damaged: [] })
    for (const key of keys) expect(await bucket().get(key)).toEqual(await disk.get(key))

    // As if the first run had stopped a quarter of the way.
    for (const key of keys.slice(5)) s3.objects.delete(`${S3_PREFIX}${key}`)
    const resumed = await copyStore(disk, bucket())
    expect(resumed).toEqual({ copied: 15, skipped: 5, damaged: [] })
    expect(s3.objects.size).toBe(20)
  })

  it('leaves out and names a file whose bytes no longer match its key', async () => {
    const { keys } = await diskWith(2)
    const broken = keys[0] as string
    await writeFile(join(dataDir, 'uploads', broken.slice(0, 2), broken), 'not what was stored')
    const done = await copyStore(createDiskStorage(join(dataDir, 'uploads')), bucket())
    expect(done).toEqual({ copied: 1, skipped: 0, damaged: [broken] })
    expect(await bucket().has(broken)).toBe(false)
  })

  it('runs as npm run storage:migrate, and says what it did', async () => {
    const { keys } = await diskWith(3)
    await mkdir(join(dataDir, 'uploads'), { recursive: true })
    const run = () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/storage-migrate.ts'], {
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...s3.env() },
        timeout: 60_000,
      })
    const { stdout } = await run()
    expect(stdout).toContain('Done: 3 copied, 0 already in the bucket, 0 damaged.')
    for (const key of keys) expect(s3.objects.has(`${S3_PREFIX}${key}`)).toBe(true)
    expect((await run()).stdout).toContain('Done: 0 copied, 3 already in the bucket, 0 damaged.')

    const wrong = promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/storage-migrate.ts'], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...s3.env(), S3_BUCKET: 'elsewhere' },
      timeout: 60_000,
    })
    await expect(wrong).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Object storage unreachable: bucket "elsewhere"'),
    })
  }, 90_000)
})
