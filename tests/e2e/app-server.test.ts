// The test-server helper itself (issue 11, section 7): a start that fails in any way kills the
// child, removes its data directory, and reports the tail of what the server printed.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startAppServer } from './support/app-server.ts'

const scripts = mkdtempSync(path.join(tmpdir(), 'loris-app-server-test-'))
afterAll(() => rmSync(scripts, { recursive: true, force: true }))

/** A stand-in server script; it records its pid and DATA_DIR so the test can look for leftovers. */
function script(name: string, body: string): { entry: string; pidFile: string; dirFile: string } {
  const entry = path.join(scripts, `${name}.mjs`)
  const pidFile = path.join(scripts, `${name}.pid`)
  const dirFile = path.join(scripts, `${name}.dir`)
  writeFileSync(
    entry,
    `import { writeFileSync } from 'node:fs'
writeFileSync(${JSON.stringify(pidFile)}, String(process.pid))
writeFileSync(${JSON.stringify(dirFile)}, process.env.DATA_DIR)
${body}`,
  )
  return { entry, pidFile, dirFile }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('startAppServer on failure', () => {
  it('kills a server that never becomes ready and reports its output', async () => {
    const s = script(
      'hangs',
      `process.on('SIGTERM', () => console.error('ignoring SIGTERM'))
console.error('still migrating the database...')
setInterval(() => {}, 1000)`,
    )
    const started = startAppServer({}, { entry: s.entry, readyTimeoutMs: 1_500 })
    await expect(started).rejects.toThrow(/did not answer \/api\/health within 1.5 s[\s\S]*still migrating/)
    const pid = Number(readFileSync(s.pidFile, 'utf8'))
    // Killed for good (SIGKILL: it ignored SIGTERM), and its data directory is gone.
    expect(isRunning(pid)).toBe(false)
    expect(existsSync(readFileSync(s.dirFile, 'utf8'))).toBe(false)
  })

  it('reports a server that exits before it is ready, with its output', async () => {
    const s = script('exits', `console.error('PORT must be a number'); process.exit(1)`)
    await expect(startAppServer({}, { entry: s.entry })).rejects.toThrow(
      /exited before it was ready \(code 1[\s\S]*PORT must be a number/,
    )
    expect(existsSync(readFileSync(s.dirFile, 'utf8'))).toBe(false)
  })

  it('starts each server from a copy of the migrated template data directory', async () => {
    const seen = path.join(scripts, 'copy.seen')
    const s = script(
      'copy',
      `import { existsSync } from 'node:fs'
import { join } from 'node:path'
writeFileSync(${JSON.stringify(seen)}, String(existsSync(join(process.env.DATA_DIR, 'pglite', 'PG_VERSION'))))
process.exit(3)`,
    )
    await expect(startAppServer({}, { entry: s.entry })).rejects.toThrow(/code 3/)
    // While it ran, its data directory already held the migrated PGlite cluster.
    expect(readFileSync(seen, 'utf8')).toBe('true')
  })
})
