// DATA_DIR, the database in it and the uploads folder are the server user's
// alone (0700), and uploaded files are 0600.
import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '#server/db/client.ts'
import { parseEnv } from '#server/env.ts'
import { createAttachments } from '#server/features/attachments/attachments.ts'
import { loadSecret } from '#server/secret.ts'
import { createLogger } from './logger.ts'

const modeOf = async (path: string) => (await stat(path)).mode & 0o777

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'loris-private-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('DATA_DIR', () => {
  it('is created 0700 with the database and the secret in it', async () => {
    const dataDir = join(root, 'data')
    const secret = loadSecret(parseEnv({ NODE_ENV: 'test', DATA_DIR: dataDir }))
    expect(secret).toBeTruthy()
    expect(await modeOf(dataDir)).toBe(0o700)
    expect(await modeOf(join(dataDir, 'session-secret'))).toBe(0o600)

    const other = join(root, 'db-first')
    const database = await openDatabase({ dataDir: other })
    try {
      expect(await modeOf(other)).toBe(0o700)
      expect(await modeOf(join(other, 'pglite'))).toBe(0o700)
    } finally {
      await database.close()
    }
    // A fresh on-disk PGlite runs every migration: slow on a busy machine.
  }, 90_000)

  it('an uploads folder is created 0700 and its files 0600; an existing open folder is tightened', async () => {
    const dataDir = join(root, 'data')
    // As an older install (or a hand-made volume) would have left it.
    await mkdir(join(dataDir, 'uploads'), { recursive: true, mode: 0o755 })
    await chmod(join(dataDir, 'uploads'), 0o755)
    const database = await openDatabase({})
    try {
      const env = parseEnv({ NODE_ENV: 'test', DATA_DIR: dataDir })
      const { storage } = createAttachments(
        { env, database, log: createLogger({ level: 'silent' }), secret: 'x'.repeat(40) },
        { transcribe: async () => '' },
      )
      const key = await storage.put(new TextEncoder().encode('a private note'))
      const uploads = join(dataDir, 'uploads')
      expect(await modeOf(uploads)).toBe(0o700)
      expect(await modeOf(join(uploads, key.slice(0, 2)))).toBe(0o700)
      expect(await modeOf(join(uploads, key.slice(0, 2), key))).toBe(0o600)
      expect(await readdir(join(uploads, key.slice(0, 2)))).toEqual([key])
    } finally {
      await database.close()
    }
  })
})
