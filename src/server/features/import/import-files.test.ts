// The files an import unpacks are written as they arrive, before any thread that names them is
// stored: what no stored thread uses is given up again when the import ends. Under the storage's
// grace (decision 042) they are fresh and wait for the hourly sweep; these tests run with no
// grace, as if the sweep's hour had passed.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contentKey, createDiskStorage } from '#server/lib/storage.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { jsonBytes as json, lorisMessage, lorisPicture, lorisThreadExport } from './loris-export-kit.ts'
import { type ImportedThread, parseImportFile } from './parse.ts'
import { storeImport } from './store-import.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

/** A Loris export of one thread whose one message carries the file at `file`. */
function lorisThread(title: string, file: string) {
  const at = new Date().toISOString()
  return lorisThreadExport(title, [lorisMessage(at, { attachment: lorisPicture(file) })], { at })
}

/** A storage of its own in the app's data directory (removed with it): only this test's files. */
const storageDir = () => mkdtempSync(path.join(t.deps.env.DATA_DIR, 'uploads-'))
const graceless = (dir: string) => createDiskStorage(dir, { graceMs: 0 })

/** Every file under `dir`, by name (the storage keys, and any temp file a write left). */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort()
}

/** An import of threads 'Kept' (file a), 'Lost' (file b) and 'Shared' (file a again). */
async function parsedImport() {
  const a = randomBytes(64)
  const b = randomBytes(64)
  const parsed = await parseImportFile(
    zipSync({
      'files/a.png': a,
      'files/b.png': b,
      'threads/0001-kept.json': json(lorisThread('Kept', 'files/a.png')),
      'threads/0002-lost.json': json(lorisThread('Lost', 'files/b.png')),
      'threads/0003-shared.json': json(lorisThread('Shared', 'files/a.png')),
    }),
  )
  const [kept, lost, shared] = parsed.threads as [ImportedThread, ImportedThread, ImportedThread]
  return { parsed, a, b, kept, lost, shared }
}

/** The thread with its messages changed past the schema (as if it had missed something). */
const broken = (thread: ImportedThread, change: Partial<ImportedThread['messages'][number]>) => ({
  ...thread,
  messages: thread.messages.map((m) => ({ ...m, ...change })),
})

describe('files of an import whose thread fails', () => {
  it('removes those of a thread the database refuses, and keeps the ones a stored thread uses', async () => {
    const { user } = await t.signUp()
    const dir = storageDir()
    const { parsed, a, kept, lost, shared } = await parsedImport()
    // A NUL fails the messages' insert, after the thread's file was written.
    const threads = [kept, broken(lost, { content: 'a\u0000b' }), broken(shared, { content: 'a\u0000b' })]
    const report = await storeImport(
      t.deps.database.db,
      user.id as string,
      { ...parsed, threads },
      graceless(dir),
      t.deps.log,
    )
    expect(report).toMatchObject({ threadsImported: 1 })
    expect(report.skipped.map((s) => s.title)).toEqual(['Lost', 'Shared'])
    // b is gone; a stays, for 'Kept' holds it (and 'Shared' wrote the same object).
    expect(filesIn(dir)).toEqual([contentKey(a)])
  })

  it('removes them when the failure fails the whole import', async () => {
    const { user } = await t.signUp()
    const dir = storageDir()
    const { parsed, lost } = await parsedImport()
    // A date no Date holds fails in our own code, not as a value the database refused: the import
    // fails (a server error), after the file was written.
    const threads = [broken(lost, { createdAt: 'not a date' })]
    await expect(
      storeImport(t.deps.database.db, user.id as string, { ...parsed, threads }, graceless(dir), t.deps.log),
    ).rejects.toThrow()
    expect(filesIn(dir)).toEqual([])
  })

  it('under the grace, leaves the fresh files for the hourly sweep', async () => {
    const { user } = await t.signUp()
    const dir = storageDir()
    const { parsed, a, b, lost } = await parsedImport()
    const threads = [broken(lost, { content: 'a\u0000b' })]
    const storage = createDiskStorage(dir)
    await storeImport(t.deps.database.db, user.id as string, { ...parsed, threads }, storage, t.deps.log)
    // Both were written as they arrived, and neither is used. Another upload of the same bytes may
    // be between its put and its row: not taken now.
    expect(filesIn(dir)).toEqual([contentKey(a), contentKey(b)].sort())
  })
})
