// Starts the built Loris server (dist/server/main.js) on a free loopback port with a fresh data
// directory, exactly as `npm start` runs it, and stops it after the test file.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

export interface AppServer {
  url: string
  dataDir: string
  logs: string[]
  stop(): Promise<void>
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))))
    })
    srv.on('error', reject)
  })
}

export async function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loris-e2e-'))
  const url = `http://127.0.0.1:${port}`
  const logs: string[] = []
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(process.env.LORIS_BUILD_DIR ?? 'dist', 'server/main.js')],
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
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  child.stdout?.on('data', (d) => logs.push(String(d)))
  child.stderr?.on('data', (d) => logs.push(String(d)))

  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join('')}`)
    try {
      const res = await fetch(`${url}/api/health`)
      if (res.ok) break
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  if (Date.now() >= deadline) throw new Error(`server did not start:\n${logs.join('')}`)

  return {
    url,
    dataDir,
    logs,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
