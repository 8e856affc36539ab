import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Env } from './env.ts'
import { ensurePrivateDirSync } from './lib/private-dir.ts'

/**
 * SESSION_SECRET when set (required in production); otherwise one generated on first start and
 * kept in DATA_DIR, so sessions survive restarts of a development or single-node install.
 */
export function loadSecret(env: Env): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET
  const file = path.resolve(env.DATA_DIR, 'session-secret')
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    ensurePrivateDirSync(env.DATA_DIR)
    const secret = randomBytes(48).toString('base64url')
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' })
    return secret
  }
}
