// Object storage for uploaded files, behind one interface so an object store (S3, GCS) can replace
// the local disk without touching callers. Objects are content addressed: the key is the sha256 of
// the bytes, so the same file uploaded twice is stored once (uploads rows may share a key).
//
// Removal follows one rule (docs/decisions/042): an object written or reused within the grace is
// never removed, because its uploads row is inserted after the put returns and a remover cannot
// see a row not inserted yet.
import { createHash, randomBytes } from 'node:crypto'
import { link, mkdir, open, opendir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { ensurePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-dir.ts'

export interface ObjectStorage {
  /**
   * Stores the bytes and returns their key. An object already stored is reused and marked as just
   * used (see keep), so a removal running meanwhile spares it until its row is inserted.
   */
  put(bytes: Uint8Array): Promise<string>
  /** The object's bytes, or null when there is none under that key. */
  get(key: string): Promise<Uint8Array | null>
  /**
   * The object's bytes as a stream read as it is pulled (a chunk in memory at a time, whatever
   * the size), or null when there is none under that key. Cancelling the stream stops the read.
   */
  open(key: string): Promise<StoredStream | null>
  has(key: string): Promise<boolean>
  /** Marks an existing object as just used, as put does; false when there is none. */
  keep(key: string): Promise<boolean>
  /**
   * Deletes the object unless it was written or kept within the grace; true when it was deleted.
   * Deleting a missing object is not an error.
   */
  removeIfStale(key: string): Promise<boolean>
  /**
   * Every stored key, read one folder at a time (never the whole store at once). On the way, temp
   * files a crash left behind and older than the grace are removed.
   */
  scan(): AsyncIterable<string>
}

export interface StoredStream {
  /** Bytes in the object, when the store says (a disk file and S3 always do). */
  size: number | null
  body: ReadableStream<Uint8Array>
}

/**
 * How long an object written or reused stays safe from removal: far longer than any put takes to
 * insert its row (an import's thread commits its files' rows at its end), short enough that what
 * a deletion spares goes with the next hourly sweep.
 */
export const OBJECT_GRACE_MS = 60 * 60_000

export const contentKey = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

const KEY = /^[0-9a-f]{64}$/
const FAN_OUT = /^[0-9a-f]{2}$/
// A write in progress (put) and an object moved aside while a removal judges it (removeIfStale).
const TEMP = /^([0-9a-f]{64})\.[0-9a-f]{12}\.(part|gone)$/

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT'
const tempName = (path: string, kind: 'part' | 'gone') => `${path}.${randomBytes(6).toString('hex')}.${kind}`

/** Files under `dir`, fanned out by the key's first two characters (ab/abcdef...). */
export function createDiskStorage(dir: string, opts: { graceMs?: number } = {}): ObjectStorage {
  const graceMs = opts.graceMs ?? OBJECT_GRACE_MS
  // No grace (tests) makes nothing fresh, even a file whose mtime is a fraction of a ms ahead.
  const fresh = (mtimeMs: number) => graceMs > 0 && Date.now() - mtimeMs < graceMs
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
  const keep = async (key: string) => {
    const now = new Date()
    try {
      await utimes(pathOf(key), now, now)
      return true
    } catch (err) {
      if (missing(err)) return false
      throw err
    }
  }
  /** A temp file the scan met: a stale write goes; an object moved aside goes back unless stale. */
  const settleTemp = async (path: string, key: string, kind: string) => {
    let mtimeMs: number
    try {
      mtimeMs = (await stat(path)).mtimeMs
    } catch (err) {
      if (missing(err)) return
      throw err
    }
    if (kind === 'gone' && fresh(mtimeMs)) {
      // A removal moved it aside and stopped (a crash) or is about to put it back: put back, as
      // it may be an object a put just reused. Its own removal finds it and spares it.
      await link(path, pathOf(key)).catch((err) => {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      })
    } else if (fresh(mtimeMs)) return
    await rm(path, { force: true })
  }
  // The uploads folder (and DATA_DIR above it, when it is new) is the server user's alone.
  let prepared: Promise<void> | null = null
  return {
    has,
    keep,
    async put(bytes) {
      const key = contentKey(bytes)
      // Reused: marked as just used, so a removal between now and the row's insert spares it.
      if (await keep(key)) return key
      const path = pathOf(key)
      prepared ??= ensurePrivateDir(dir).catch((err) => {
        prepared = null
        throw err
      })
      await prepared
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true, mode: PRIVATE_DIR_MODE })
      // Write then rename: a reader never sees half a file, and a crash leaves only a temp file.
      const temp = tempName(path, 'part')
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
        if (missing(err)) return null
        throw err
      }
    },
    async open(key) {
      let handle: Awaited<ReturnType<typeof open>>
      try {
        handle = await open(pathOf(key), 'r')
      } catch (err) {
        if (missing(err)) return null
        throw err
      }
      try {
        // Opened before its size is read: a removal meanwhile leaves this read whole.
        const { size } = await handle.stat()
        // The stream closes the file when it ends or is cancelled.
        const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>
        return { size, body }
      } catch (err) {
        await handle.close()
        throw err
      }
    },
    async removeIfStale(key) {
      const path = pathOf(key)
      try {
        // The common case (a deletion right after a send) is settled by a first look.
        if (fresh((await stat(path)).mtimeMs)) return false
      } catch (err) {
        if (missing(err)) return false
        throw err
      }
      // Judged again once moved aside, so no put falls between the look and the delete: a put
      // that reused it before the move left a fresh mtime (and it goes back); one after the move
      // finds no object and writes it anew.
      const aside = tempName(path, 'gone')
      try {
        await rename(path, aside)
      } catch (err) {
        if (missing(err)) return false
        throw err
      }
      let mtimeMs: number
      try {
        mtimeMs = (await stat(aside)).mtimeMs
      } catch (err) {
        // A scan settled it meanwhile (settleTemp): nothing left for this removal to do.
        if (missing(err)) return false
        throw err
      }
      if (fresh(mtimeMs)) {
        await link(aside, path).catch((err) => {
          // Written anew by a put meanwhile: the same bytes are there.
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
        })
        await rm(aside, { force: true })
        return false
      }
      await rm(aside, { force: true })
      return true
    },
    async *scan() {
      let top: Awaited<ReturnType<typeof opendir>>
      try {
        top = await opendir(dir)
      } catch (err) {
        if (missing(err)) return
        throw err
      }
      // Names, not entry types, decide: some filesystems report no type. Anything else found here
      // (not ours) is left alone.
      for await (const fan of top) {
        if (!FAN_OUT.test(fan.name)) continue
        let inner: Awaited<ReturnType<typeof opendir>>
        try {
          inner = await opendir(join(dir, fan.name))
        } catch (err) {
          if (missing(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') continue
          throw err
        }
        for await (const entry of inner) {
          if (KEY.test(entry.name)) yield entry.name
          const temp = TEMP.exec(entry.name)
          if (temp) await settleTemp(join(dir, fan.name, entry.name), temp[1] as string, temp[2] as string)
        }
      }
    },
  }
}
