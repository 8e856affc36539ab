// One process at a time downloads a model file: cluster workers share DATA_DIR (decision 015), and
// two of them appending to one `.part` made a file of the wrong size that was then trusted. The
// lock is a file created with 'wx' (O_EXCL: exactly one creator wins). Its owner touches it every
// few seconds; a lock whose process died on this machine, or left untouched for STALE_MS (an owner
// on another machine, or hung), is taken over, so a crash never blocks the download for good.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'

export interface DownloadLock {
  /** Whether the lock is still this owner's (nobody took it over as stale). */
  held(): Promise<boolean>
  release(): Promise<void>
}

interface LockInfo {
  pid: number
  host: string
  token: string
}

const HEARTBEAT_MS = 5_000
const STALE_MS = 30_000
const POLL_MS = 200

/** Waits until this process holds `lockFile`, calling `onWait` between polls while another does. */
export async function acquireDownloadLock(
  lockFile: string,
  opts: { signal?: AbortSignal; onWait?: () => Promise<void> } = {},
): Promise<DownloadLock> {
  const info: LockInfo = { pid: process.pid, host: hostname(), token: randomUUID() }
  for (;;) {
    opts.signal?.throwIfAborted()
    try {
      await fs.writeFile(lockFile, JSON.stringify(info), { flag: 'wx' })
      return ownedLock(lockFile, info)
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err
    }
    if (await isStale(lockFile)) {
      // Two waiters may both judge it stale and both take it; the one displaced finds out through
      // held() before it renames anything, and the on-disk checksum catches a part both wrote.
      await fs.rm(lockFile, { force: true })
      continue
    }
    await opts.onWait?.()
    await sleep(POLL_MS, undefined, { signal: opts.signal })
  }
}

function ownedLock(lockFile: string, info: LockInfo): DownloadLock {
  const heartbeat = setInterval(() => {
    const now = new Date()
    fs.utimes(lockFile, now, now).catch(() => {})
  }, HEARTBEAT_MS)
  heartbeat.unref()
  const held = async () => (await readLock(lockFile))?.token === info.token
  return {
    held,
    async release() {
      clearInterval(heartbeat)
      // Never remove a lock another process has taken over.
      if (await held()) await fs.rm(lockFile, { force: true })
    },
  }
}

async function readLock(lockFile: string): Promise<LockInfo | null> {
  try {
    return JSON.parse(await fs.readFile(lockFile, 'utf8')) as LockInfo
  } catch {
    // Gone, or just created and not written yet: nobody's we can name.
    return null
  }
}

async function isStale(lockFile: string): Promise<boolean> {
  const stat = await fs.stat(lockFile).catch(() => null)
  if (!stat) return false // released meanwhile: the next 'wx' decides
  const owner = await readLock(lockFile)
  if (owner && owner.host === hostname() && !isAlive(owner.pid)) return true
  return Date.now() - stat.mtimeMs > STALE_MS
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as { code?: string }).code === 'EPERM'
  }
}
