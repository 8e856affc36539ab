import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { contentKey, createDiskStorage, type ObjectStorage } from './storage.ts'

let dir: string
let storage: ObjectStorage
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loris-storage-'))
  storage = createDiskStorage(dir)
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('disk storage', () => {
  it('stores by sha256, once per content, and reads it back', async () => {
    const bytes = new TextEncoder().encode('the loris sleeps by day')
    const key = await storage.put(bytes)
    expect(key).toBe(contentKey(bytes))
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(await storage.put(bytes)).toBe(key)
    expect(await readdir(join(dir, key.slice(0, 2)))).toEqual([key])
    expect(await storage.get(key)).toEqual(bytes)
    expect(await storage.has(key)).toBe(true)
  })

  it('removes objects; missing ones read as null and remove quietly', async () => {
    const key = await storage.put(new Uint8Array([1, 2, 3]))
    await storage.remove(key)
    expect(await storage.get(key)).toBeNull()
    expect(await storage.has(key)).toBe(false)
    await expect(storage.remove(key)).resolves.toBeUndefined()
  })

  it('never builds a path from something that is not a key', async () => {
    await expect(storage.get('../../etc/passwd')).rejects.toThrow('not a storage key')
  })
})
