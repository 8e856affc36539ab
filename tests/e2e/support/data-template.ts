// A migrated PGlite data directory made once per run (global-setup.ts) and copied by every test
// server (app-server.ts): initialising PGlite and migrating takes seconds on a quiet machine and
// a minute on a loaded one; a copy takes under one. Its name carries a hash of the migrations and
// the PGlite version, so a schema change makes a new one.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../../..')
const migrations = path.join(root, 'src/server/db/migrations')

function fingerprint(): string {
  const hash = createHash('sha256')
  const pglite = JSON.parse(
    readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string }
  hash.update(pglite.version)
  for (const name of readdirSync(migrations).sort()) {
    if (name.endsWith('.sql')) hash.update(name).update(readFileSync(path.join(migrations, name)))
  }
  hash.update(readFileSync(path.join(migrations, 'meta/_journal.json')))
  return hash.digest('hex').slice(0, 16)
}

/** A finished template: the data directory of a cleanly closed PGlite. */
export function isTemplate(dir: string): boolean {
  return existsSync(path.join(dir, 'pglite', 'PG_VERSION'))
}

export function templateDataDir(): string {
  return path.join(tmpdir(), `loris-e2e-template-${fingerprint()}`)
}

/** Makes the template if it does not exist yet (built aside, then renamed into place). */
export async function prepareTemplateDataDir(): Promise<string> {
  const dir = templateDataDir()
  if (isTemplate(dir)) return dir
  // A half-made one (a run killed while making it) is made again.
  rmSync(dir, { recursive: true, force: true })
  const building = `${dir}.building-${process.pid}`
  rmSync(building, { recursive: true, force: true })
  const { openDatabase } = await import('../../../src/server/db/client.ts')
  const database = await openDatabase({ dataDir: building })
  await database.close()
  try {
    renameSync(building, dir)
  } catch {
    // Another run made it first: theirs is as good.
    rmSync(building, { recursive: true, force: true })
  }
  return dir
}
