// Object storage for uploaded files, behind one interface so an object store (S3, GCS) can replace
// the local disk without touching callers. Objects are content addressed: the key is the sha256 of
// the bytes, so the same file uploaded twice is stored once (uploads rows may share a key).
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ensurePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-dir.ts'

export interface ObjectStorage {
  /** Stores the bytes (a no-op when the object exists) and returns their key. */
  put(bytes: Uint8Array): Promise<string>
  /** The object's bytes, or null when there is none under that key. */
  get(key: string): Promise<Uint8Array | null>
  /** Deletes the object; deleting a missing object is not an error. */
  remove(key: string): Promise<void>
  has(key: string): Promise<boolean>
}

export const contentKey = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

const KEY = /^[0-9a-f]{64}$/

/** Files under `dir`, fanned out by the key's first two characters (ab/abcdef...). */
export function createDiskStorage(dir: string): ObjectStorage {
  const pathOf = (key: string) => {
    // Keys come from our database, but a path is never built from anything but a hex digest.
    if (!KEY.test(key)) throw new Error(`not a storage key: ${key}`)
    return join(dir, key.slice(0, 2), key)
  }
  const has = async (key: string) => {
    try {
      return (await stat(pathOf(key))).isFile()
    } catch {
      return false
    }
  }
  // The uploads folder (and DATA_DIR above it, when it is new) is the server user's alone.
  let prepared: Promise<void> | null = null
  return {
    has,
    async put(bytes) {
      const key = contentKey(bytes)
      if (await has(key)) return key
      const path = pathOf(key)
      prepared ??= ensurePrivateDir(dir).catch((err) => {
        prepared = null
        throw err
      })
      await prepared
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true, mode: PRIVATE_DIR_MODE })
      // Write then rename: a reader never sees half a file, and a crash leaves only a temp file.
      const temp = `${path}.${randomBytes(6).toString('hex')}.part`
      try {
        await writeFile(temp, bytes, { mode: PRIVATE_FILE_MODE })
        await rename(temp, path)
      } finally {
        await rm(temp, { force: true })
      }
      return key
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw err
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true })
    },
  }
}
