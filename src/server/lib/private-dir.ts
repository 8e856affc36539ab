// DATA_DIR holds the database, the session secret and every uploaded file: only the server's own
// user may list or read it. Directories are created 0700; one that already exists (an
// install from before this rule, a volume created by hand) is tightened to 0700 when we own it.
import { chmodSync, mkdirSync } from 'node:fs'
import { chmod, mkdir } from 'node:fs/promises'

export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

const tighten = (err: unknown) => {
  // Owned by someone else (a read-only mount, a shared volume): left as the administrator set it.
  if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err
}

export function ensurePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  try {
    chmodSync(dir, PRIVATE_DIR_MODE)
  } catch (err) {
    tighten(err)
  }
}

export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  await chmod(dir, PRIVATE_DIR_MODE).catch(tighten)
}
