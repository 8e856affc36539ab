// Every server a test starts is noted in a folder of this run (its pid, and its data directory if
// the helper made it) until it is stopped. A test worker can be killed before its own cleanup runs,
// and a retried test can lose its first attempt's server: the run's teardown (global-setup.ts)
// kills whatever is still noted, so no server outlives `npm test`.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const VAR = 'LORIS_E2E_SERVERS'

interface Noted {
  /** The command line it was started with, so a reused pid is never killed. */
  cmdline: string
  dataDir?: string
}

const cmdlineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8')

/** Made by the global setup; the test workers inherit its path through the environment. */
export function openRegistry(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'loris-e2e-servers-'))
  process.env[VAR] = dir
  return dir
}

export function noteServer(pid: number | undefined, dataDir: string | undefined): void {
  const dir = process.env[VAR]
  if (!dir || pid === undefined) return
  let cmdline = ''
  try {
    cmdline = cmdlineOf(pid)
  } catch {
    return // already gone
  }
  writeFileSync(path.join(dir, String(pid)), JSON.stringify({ cmdline, dataDir } satisfies Noted))
}

export function forgetServer(pid: number | undefined): void {
  const dir = process.env[VAR]
  if (dir && pid !== undefined) rmSync(path.join(dir, String(pid)), { force: true })
}

/** Kills the servers still noted and removes their data directories; returns what it killed. */
export function closeRegistry(dir: string): string[] {
  const killed: string[] = []
  for (const name of readdirSync(dir)) {
    const pid = Number(name)
    const noted = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Noted
    let alive = false
    try {
      alive = cmdlineOf(pid) === noted.cmdline
    } catch {
      // gone
    }
    if (alive) {
      process.kill(pid, 'SIGKILL')
      killed.push(`pid ${pid}: ${noted.cmdline.replaceAll('\0', ' ').trim()}`)
    }
    if (noted.dataDir) rmSync(noted.dataDir, { recursive: true, force: true })
  }
  rmSync(dir, { recursive: true, force: true })
  return killed
}
