// What every ObjectStorage promises (src/server/lib/storage.ts), as one suite each backend's test
// file runs against its own store; what only one backend does (disk paths, S3 requests) stays in
// that file. Edit when the interface's promises change.
import { describe, expect, it } from 'vitest'
import { contentKey, type ObjectStorage } from '#server/lib/storage.ts'

export interface StorageUnderTest {
  /** A store on this test's empty backend; `graceMs` as the backend's own option. */
  make(opts?: { graceMs?: number }): ObjectStorage
  /** Moves the object's last write back hours, past the grace, as if written then. */
  age(key: string): Promise<void> | void
  /** When the backend says the object was last written or kept, in ms since the epoch. */
  modifiedAt(key: string): Promise<number>
}

export function storageContract(name: string, backend: StorageUnderTest): void {
  describe(`${name}: the ObjectStorage contract`, () => {
    it('stores by sha256, once per content, and reads it back', async () => {
      const storage = backend.make()
      const bytes = new TextEncoder().encode('the loris sleeps by day')
      const key = await storage.put(bytes)
      expect(key).toBe(contentKey(bytes))
      expect(key).toMatch(/^[0-9a-f]{64}$/)
      expect(await storage.put(bytes)).toBe(key)
      expect(await storage.get(key)).toEqual(bytes)
      expect(await storage.has(key)).toBe(true)
    })

    it('opens an object as a stream of its bytes with its size; a missing one opens as null', async () => {
      const storage = backend.make()
      const bytes = new Uint8Array(3 * 2 ** 20).map((_, i) => i % 251)
      const key = await storage.put(bytes)
      const stored = await storage.open(key)
      expect(stored?.size).toBe(bytes.length)
      const chunks: Uint8Array[] = []
      for await (const chunk of (stored as NonNullable<typeof stored>).body) chunks.push(chunk)
      expect(Buffer.concat(chunks).equals(Buffer.from(bytes))).toBe(true)
      expect(await storage.open('0'.repeat(64))).toBeNull()
    })

    it('removes stale objects; missing ones read as null and remove quietly', async () => {
      const storage = backend.make()
      const key = await storage.put(new Uint8Array([1, 2, 3]))
      await backend.age(key)
      expect(await storage.removeIfStale(key)).toBe(true)
      expect(await storage.get(key)).toBeNull()
      expect(await storage.open(key)).toBeNull()
      expect(await storage.has(key)).toBe(false)
      expect(await storage.removeIfStale(key)).toBe(false)
    })

    it('spares an object written within the grace', async () => {
      const storage = backend.make()
      const key = await storage.put(new Uint8Array([4, 5, 6]))
      expect(await storage.removeIfStale(key)).toBe(false)
      expect(await storage.has(key)).toBe(true)
    })

    // Decision 042: the row of an upload is inserted after its put; a removal that found no row
    // for these bytes in between must not take the object the put just reused.
    it('a put of bytes already stored marks the object as just used, so a removal spares it', async () => {
      const storage = backend.make()
      const bytes = new Uint8Array([7, 8, 9])
      const key = await storage.put(bytes)
      await backend.age(key)
      expect(await storage.put(bytes)).toBe(key)
      expect(await backend.modifiedAt(key)).toBeGreaterThan(Date.now() - 60_000)
      expect(await storage.removeIfStale(key)).toBe(false)
      expect(await storage.get(key)).toEqual(bytes)
    })

    it('keep marks an object as just used and says whether there is one', async () => {
      const storage = backend.make()
      const key = await storage.put(new Uint8Array([10]))
      await backend.age(key)
      expect(await storage.keep(key)).toBe(true)
      expect(await storage.removeIfStale(key)).toBe(false)
      expect(await storage.keep('c'.repeat(64))).toBe(false)
    })

    it('a removal run with no grace removes at once', async () => {
      const now = backend.make({ graceMs: 0 })
      const key = await now.put(new Uint8Array([11]))
      expect(await now.removeIfStale(key)).toBe(true)
      expect(await now.has(key)).toBe(false)
    })

    it('scans every key it holds, and an empty store as no keys', async () => {
      const storage = backend.make()
      for await (const key of storage.scan()) throw new Error(`unexpected ${key}`)
      const keys = await Promise.all([1, 2, 3].map((n) => storage.put(new Uint8Array([n, n, n]))))
      const seen: string[] = []
      for await (const key of storage.scan()) seen.push(key)
      expect(seen.sort()).toEqual([...keys].sort())
    })

    it('refuses to read under a name that is not a key', async () => {
      const storage = backend.make()
      await expect(storage.get('../../etc/passwd')).rejects.toThrow('not a storage key')
    })
  })
}
