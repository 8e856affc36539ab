// A fresh embedded database is a copy of one made at build time (decision 022): PGlite's initdb
// took about 3.5 s of CPU and left up to 900 MB resident (two PostgreSQL heaps and the initdb
// module, in WebAssembly memories that never shrink), on every first start. The build runs
// initdb and the migrations once, closes the database cleanly, and ships the directory beside
// the server; a new DATA_DIR gets a file copy of it, then opens like any existing database.
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
} from 'node:fs'
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { pgliteOptions } from './pglite-options.ts'

/** What a template was made from; it is used only where both still hold. */
export interface TemplateStamp {
  /** The PGlite release whose PostgreSQL wrote the files. */
  pglite: string
  /** sha256 of each migration's SQL, in order (as drizzle records them). */
  migrations: string[]
}

const STAMP = 'loris-template.json'
const DATA = 'pgdata'

/** The installed PGlite's version (its package.json is not among its exports). */
export function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
  for (; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json')
    if (!existsSync(file)) continue
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
    if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version
  }
  throw new Error('@electric-sql/pglite: package.json not found')
}

/** The hashes drizzle's migrator stores for each migration (sha256 of the file). */
export function migrationHashes(migrationsFolder: string): string[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[]
  }
  return journal.entries.map((e) =>
    createHash('sha256')
      .update(readFileSync(path.join(migrationsFolder, `${e.tag}.sql`)))
      .digest('hex'),
  )
}

/**
 * Makes the template in `outDir` (replaced if present): a database initialised, migrated and
 * shut down cleanly, and the stamp saying what it was made from.
 */
export async function buildTemplate(outDir: string, migrationsFolder: string): Promise<void> {
  const work = await mkdtemp(`${outDir}.making-`)
  try {
    const db = new PGlite(path.join(work, DATA), pgliteOptions())
    await migrate(drizzle({ client: db }), { migrationsFolder })
    // A clean shutdown ends with a checkpoint: the copy starts without WAL to replay.
    await db.close()
    const stamp: TemplateStamp = { pglite: pgliteVersion(), migrations: migrationHashes(migrationsFolder) }
    await writeFile(path.join(work, STAMP), `${JSON.stringify(stamp, null, 2)}\n`)
    await rm(outDir, { recursive: true, force: true })
    await rename(work, outDir)
  } catch (err) {
    await rm(work, { recursive: true, force: true })
    throw err
  }
}

/**
 * Why the template in `templateDir` cannot serve these migrations, or null when it can: same
 * PGlite, and its migrations are the first of today's (drizzle then applies the rest).
 */
export function templateMismatch(templateDir: string, migrationsFolder: string): string | null {
  const file = path.join(templateDir, STAMP)
  if (!existsSync(file) || !existsSync(path.join(templateDir, DATA, 'PG_VERSION'))) return 'no template'
  const stamp = JSON.parse(readFileSync(file, 'utf8')) as TemplateStamp
  if (stamp.pglite !== pgliteVersion()) return `made by PGlite ${stamp.pglite}`
  const current = migrationHashes(migrationsFolder)
  const prefix =
    stamp.migrations.length <= current.length && stamp.migrations.every((h, i) => h === current[i])
  return prefix ? null : 'made from other migrations'
}

/**
 * Fills the empty (or missing) database directory `dir` with a copy of the template. The copy is
 * made beside it and renamed into place, so a crash midway leaves no half database (the next
 * start copies again). Returns false, touching nothing, when `dir` already holds files.
 * Synchronous on purpose: nothing else runs yet, and the asynchronous copy took twice the CPU
 * (a promise and a thread-pool hop for each of PostgreSQL's 1,040 files).
 */
export function createFromTemplate(templateDir: string, dir: string): boolean {
  // What a copy interrupted by a crash left behind.
  const parent = path.dirname(dir)
  const leftover = `${path.basename(dir)}.copying-`
  for (const name of readdirSync(parent))
    if (name.startsWith(leftover)) rmSync(path.join(parent, name), { recursive: true, force: true })
  if (existsSync(dir)) {
    if (readdirSync(dir).length > 0) return false
    rmdirSync(dir)
  }
  const work = mkdtempSync(`${dir}.copying-`)
  try {
    cpSync(path.join(templateDir, DATA), work, { recursive: true })
    renameSync(work, dir)
  } catch (err) {
    rmSync(work, { recursive: true, force: true })
    throw err
  }
  return true
}
