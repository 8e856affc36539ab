// The test-server helper itself: a start that fails in any way kills the
// child, removes its data directory, and reports the tail of what the server printed; a server a
// test loses (a killed worker, a retry) is killed by the run's teardown.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startAppServer } from './support/app-server.ts'
import { closeRegistry, noteServer } from './support/server-registry.ts'

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

describe('servers a test loses', () => {
  it("are noted while they run, and the run's teardown kills them and removes their data", async () => {
    const s = script(
      'lost',
      `import { createServer } from 'node:http'
createServer((_, res) => res.end('{"ok":true}')).listen(Number(process.env.PORT), '127.0.0.1')`,
    )
    // The run's note is in the environment (global-setup.ts): this server is in it until stopped.
    const dir = process.env.LORIS_E2E_SERVERS as string
    expect(existsSync(dir)).toBe(true)
    const lost = await startAppServer({}, { entry: s.entry })
    const pid = Number(readFileSync(s.pidFile, 'utf8'))
    expect(existsSync(path.join(dir, String(pid)))).toBe(true)
    // A second note of the run's kind, here in a folder of its own, as the teardown would find it
    // after a worker died; a pid since reused by another program is left alone.
    const own = mkdtempSync(path.join(tmpdir(), 'loris-e2e-servers-test-'))
    const previous = process.env.LORIS_E2E_SERVERS
    process.env.LORIS_E2E_SERVERS = own
    noteServer(pid, lost.dataDir)
    noteServer(process.pid, undefined)
    writeFileSync(path.join(own, String(process.pid)), JSON.stringify({ cmdline: 'another program' }))
    process.env.LORIS_E2E_SERVERS = previous
    const killed = closeRegistry(own)
    expect(killed).toHaveLength(1)
    expect(killed[0]).toContain(s.entry)
    await expect.poll(() => isRunning(pid)).toBe(false)
    expect(existsSync(lost.dataDir)).toBe(false)
    expect(existsSync(own)).toBe(false)
    // Stopping what is already gone is fine, and takes it out of the run's note.
    await lost.stop()
    expect(existsSync(path.join(dir, String(pid)))).toBe(false)
  })
})
