// A fresh data directory is a copy of the database made at build time (decision 022): it opens
// with every migration already recorded (none run), keeps what is written across a restart, and
// a template that does not match today's migrations is never used.
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrationsFolder, openDatabase } from './client.ts'
import { buildTemplate, createFromTemplate, migrationHashes, templateMismatch } from './pglite-template.ts'
import { users } from './schema/index.ts'

let work: string
let template: string
beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'loris-template-'))
  template = path.join(work, 'template')
  await buildTemplate(template, migrationsFolder)
}, 120_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

const dataDir = (name: string) => path.join(work, name)
const MIGRATIONS = migrationHashes(migrationsFolder).length

/** Opens `dir` again: an existing database (nothing copied, no migration) holding `email`'s user. */
async function expectReopenedWith(dir: string, email: string) {
  const again = await openDatabase({ dataDir: dir, pgliteTemplate: template })
  try {
    expect(again.start).toEqual({ created: null, migrationsApplied: 0 })
    const rows = await again.db.select().from(users).where(eq(users.email, email))
    expect(rows).toHaveLength(1)
  } finally {
    await again.close()
  }
}

describe('the embedded database template', () => {
  it('records what it was made from', () => {
    expect(templateMismatch(template, migrationsFolder)).toBeNull()
    const stamp = JSON.parse(readFileSync(path.join(template, 'loris-template.json'), 'utf8'))
    expect(stamp.migrations).toEqual(migrationHashes(migrationsFolder))
  })

  it('makes a fresh data directory without running a migration, and it survives a restart', async () => {
    const dir = dataDir('fresh')
    const first = await openDatabase({ dataDir: dir, pgliteTemplate: template })
    try {
      expect(first.start).toEqual({ created: 'template', migrationsApplied: 0 })
      await first.db.insert(users).values({ email: 'kept@example.com' })
    } finally {
      await first.close()
    }
    await expectReopenedWith(dir, 'kept@example.com')
    // Nothing of the copy is left beside the database.
    expect(existsSync(path.join(dir, 'pglite', 'PG_VERSION'))).toBe(true)
  }, 120_000)

  it('keeps what was written when the process is killed (kill -9) right after a fresh start', async () => {
    const dir = dataDir('killed')
    // A server's first moments on a new data directory: made from the template, one write, then
    // killed without any shutdown.
    const script = `
      const { openDatabase } = await import(${JSON.stringify(path.join(import.meta.dirname, 'client.ts'))})
      const { users } = await import(${JSON.stringify(path.join(import.meta.dirname, 'schema/index.ts'))})
      const database = await openDatabase({ dataDir: ${JSON.stringify(dir)}, pgliteTemplate: ${JSON.stringify(template)} })
      await database.db.insert(users).values({ email: 'survivor@example.com' })
      process.stdout.write(JSON.stringify(database.start) + '\\n')
      setInterval(() => {}, 1000)
    `
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d) => {
      stderr += String(d)
    })
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', (d) => {
          out += String(d)
          if (out.includes('\n')) resolve(out.split('\n')[0] as string)
        })
        child.once('exit', (code) => reject(new Error(`exited (${code}) before writing: ${stderr}`)))
      })
      expect(JSON.parse(line)).toEqual({ created: 'template', migrationsApplied: 0 })
    } finally {
      child.kill('SIGKILL')
      if (child.exitCode === null && child.signalCode === null)
        await new Promise((r) => child.once('exit', r))
    }
    await expectReopenedWith(dir, 'survivor@example.com')
  }, 120_000)

  it('removes what an interrupted copy left and does not copy over files', async () => {
    const dir = dataDir('leftover')
    mkdirSync(path.join(dir, 'pglite.copying-abc123'), { recursive: true })
    writeFileSync(path.join(dir, 'pglite.copying-abc123', 'PG_VERSION'), '17\n')
    const database = await openDatabase({ dataDir: dir, pgliteTemplate: template })
    await database.close()
    expect(database.start?.created).toBe('template')
    expect(existsSync(path.join(dir, 'pglite.copying-abc123'))).toBe(false)
    // A database directory that holds anything is never replaced.
    const occupied = path.join(dataDir('occupied'), 'pglite')
    mkdirSync(occupied, { recursive: true })
    writeFileSync(path.join(occupied, 'something'), 'mine')
    expect(createFromTemplate(template, occupied)).toBe(false)
    expect(readFileSync(path.join(occupied, 'something'), 'utf8')).toBe('mine')
  }, 120_000)

  it('applies only the migrations newer than the template', async () => {
    // A template made before the last migration existed.
    const older = path.join(work, 'migrations-older')
    cpSync(migrationsFolder, older, { recursive: true })
    const journalFile = path.join(older, 'meta', '_journal.json')
    const journal = JSON.parse(readFileSync(journalFile, 'utf8'))
    journal.entries = journal.entries.slice(0, -1)
    writeFileSync(journalFile, JSON.stringify(journal))
    const olderTemplate = path.join(work, 'template-older')
    await buildTemplate(olderTemplate, older)
    expect(templateMismatch(olderTemplate, migrationsFolder)).toBeNull()
    const database = await openDatabase({ dataDir: dataDir('older'), pgliteTemplate: olderTemplate })
    await database.close()
    expect(database.start).toEqual({ created: 'template', migrationsApplied: 1 })
  }, 180_000)

  it('is not used when it was made from other migrations: initdb and every migration instead', async () => {
    const other = path.join(work, 'template-other')
    cpSync(template, other, { recursive: true })
    const stampFile = path.join(other, 'loris-template.json')
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'))
    stamp.migrations[0] = 'f'.repeat(64)
    writeFileSync(stampFile, JSON.stringify(stamp))
    expect(templateMismatch(other, migrationsFolder)).toBe('made from other migrations')
    const database = await openDatabase({ dataDir: dataDir('other'), pgliteTemplate: other })
    await database.close()
    expect(database.start).toEqual({
      created: 'initdb',
      migrationsApplied: MIGRATIONS,
      note: 'made from other migrations',
    })
  }, 180_000)
})
