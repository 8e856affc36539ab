// Starts the built Loris server (dist/server/main.js) on a free loopback port, exactly as
// `npm start` runs it, and stops it after the test file. Each server gets its own data directory,
// copied from a migrated one that global-setup.ts prepares once per run (a fresh PGlite takes
// tens of seconds to initialise on a loaded machine; copying takes under one).
// Whatever goes wrong while starting (a timeout, an early exit, a spawn error), the child is
// killed and its data directory removed before the error, with the tail of the server's output.
import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort } from '../../helpers/free-port.ts'
import { isTemplate, templateDataDir } from './data-template.ts'
import { forgetServer, noteServer } from './server-registry.ts'

export interface AppServer {
  url: string
  dataDir: string
  logs: string[]
  /** The server's process (tests that close its output or signal it themselves). */
  child: ChildProcess
  /** Graceful stop (SIGTERM, as in production), then the data directory goes unless kept. */
  stop(): Promise<void>
  /** Kills the process at once (kill -9): nothing is finished or flushed. Keeps the data dir. */
  crash(): Promise<void>
}

export interface StartOptions {
  /** Start on this data directory (e.g. a crashed server's) instead of a fresh copy; it is kept. */
  dataDir?: string
  /** Port to listen on; a free one by default. */
  port?: number
  /** How long to wait for /api/health (tests of this helper shorten it). */
  readyTimeoutMs?: number
  /** The script to run instead of the built server (tests of this helper). */
  entry?: string
}

/** A fresh PGlite under load can take a minute to initialise; the template makes this rare. */
const READY_TIMEOUT_MS = 150_000
const STOP_GRACE_MS = 20_000
const TAIL_CHARS = 6_000

/** A new data directory: a copy of the migrated template when there is one, else empty. */
function freshDataDir(): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loris-e2e-'))
  const template = templateDataDir()
  if (isTemplate(template)) cpSync(template, dataDir, { recursive: true })
  return dataDir
}

const tail = (logs: string[]) => logs.join('').slice(-TAIL_CHARS)

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

/** SIGTERM, then SIGKILL if it has not exited after the grace period. */
async function terminate(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const done = exited(child)
  child.kill(signal)
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
  await done
  clearTimeout(timer)
}

export async function startAppServer(
  env: Record<string, string> = {},
  opts: StartOptions = {},
): Promise<AppServer> {
  const port = opts.port ?? (await freePort())
  const ownsDataDir = !opts.dataDir
  const dataDir = opts.dataDir ?? freshDataDir()
  const url = `http://127.0.0.1:${port}`
  const logs: string[] = []
  const child: ChildProcess = spawn(
    process.execPath,
    [opts.entry ?? path.join(process.env.LORIS_BUILD_DIR ?? 'dist', 'server/main.js')],
    {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: url,
        LOG_LEVEL: 'info',
        // No test reaches outside this machine: the eco model's default source is Hugging Face.
        ECO_ENGINE: 'off',
        EMBED_ENGINE: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  child.stdout?.on('data', (d) => logs.push(String(d)))
  child.stderr?.on('data', (d) => logs.push(String(d)))
  // If the test worker itself exits, the server must not outlive it; if it is killed, the run's
  // teardown kills what is still noted (server-registry.ts).
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  noteServer(child.pid, ownsDataDir ? dataDir : undefined)

  const removeDataDir = () => {
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true })
  }

  try {
    await waitUntilReady(child, url, opts.readyTimeoutMs ?? READY_TIMEOUT_MS)
  } catch (err) {
    await terminate(child, 'SIGKILL')
    process.off('exit', killOnExit)
    forgetServer(child.pid)
    removeDataDir()
    const reason = err instanceof Error ? err.message : String(err)
    throw new Error(`${reason}\n--- server output (tail) ---\n${tail(logs)}`)
  }

  return {
    url,
    dataDir,
    logs,
    child,
    async stop() {
      await terminate(child)
      process.off('exit', killOnExit)
      forgetServer(child.pid)
      removeDataDir()
    },
    async crash() {
      await terminate(child, 'SIGKILL')
      process.off('exit', killOnExit)
      forgetServer(child.pid)
    },
  }
}

/** Resolves once /api/health answers; rejects on exit, spawn error or timeout. */
async function waitUntilReady(child: ChildProcess, url: string, timeoutMs: number): Promise<void> {
  let failure: Error | null = null
  const onError = (err: Error) => {
    failure = new Error(`server could not be started: ${err.message}`)
  }
  const onExit = (code: number | null, signal: string | null) => {
    failure = new Error(`server exited before it was ready (code ${code}, signal ${signal})`)
  }
  child.once('error', onError)
  child.once('exit', onExit)
  try {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      if (failure) throw failure
      if (Date.now() > deadline)
        throw new Error(`server did not answer /api/health within ${timeoutMs / 1000} s`)
      try {
        const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) })
        if (res.ok) return
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  } finally {
    child.off('error', onError)
    child.off('exit', onExit)
  }
}
