// The migrated, empty in-memory database every API test starts from. PGlite's initdb costs 3 to
// 6 s of CPU and the unit step opens well over a hundred databases: most of its time went there.
// One image per PGlite release and set of migrations is made once and kept on disk, so each
// test file (vitest gives every file fresh modules) loads it in under a second. The image has
// pgvector and the embeddings' table already (db/vectors.ts), or, for tests of a database without
// vectors, neither.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { type Db, migrationsFolder } from '#server/db/client.ts'
import { pgliteOptions } from '#server/db/pglite-options.ts'
import { migrationHashes, pgliteVersion } from '#server/db/pglite-template.ts'
import { ensureVectorStore } from '#server/db/vectors.ts'

const images = new Map<boolean, Promise<Blob>>()

/** The image's file: its name says what made it, so a new migration or PGlite makes a new one. */
export function imageFile(vectors = true): string {
  const key = createHash('sha256')
    .update(
      JSON.stringify({ pglite: pgliteVersion(), migrations: migrationHashes(migrationsFolder), vectors }),
    )
    .digest('hex')
    .slice(0, 16)
  return path.join(tmpdir(), 'loris-test-pglite', `${key}.tar`)
}

export function migratedImage(vectors = true): Promise<Blob> {
  let image = images.get(vectors)
  if (!image) {
    image = load(vectors).catch((err) => {
      images.delete(vectors)
      throw err
    })
    images.set(vectors, image)
  }
  return image
}

async function load(vectors: boolean): Promise<Blob> {
  const file = imageFile(vectors)
  if (existsSync(file)) return new Blob([readFileSync(file)])
  const db = new PGlite(pgliteOptions())
  try {
    await migrate(drizzle({ client: db }), { migrationsFolder })
    if (vectors) await ensureVectorStore(drizzle({ client: db }) as unknown as Db)
    const dump = await db.dumpDataDir('none')
    const bytes = Buffer.from(await dump.arrayBuffer())
    // Written beside and renamed: two workers making it at once each leave a whole file.
    mkdirSync(path.dirname(file), { recursive: true })
    const partial = `${file}.${process.pid}.partial`
    try {
      writeFileSync(partial, bytes)
      renameSync(partial, file)
    } finally {
      rmSync(partial, { force: true })
    }
    return new Blob([bytes])
  } finally {
    await db.close()
  }
}
