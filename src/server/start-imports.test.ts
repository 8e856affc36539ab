// What the server loads before its first request (decision 022): the packages only some
// requests need (the local eco model's runtime, Stripe, the mailer, the PostgreSQL driver, the
// document parsers of the parse workers) are loaded when first used, not at start, even when
// they are configured. Counted from the module URLs the process resolves, not timed.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { freePort } from '../../tests/helpers/free-port.ts'

const root = path.resolve(import.meta.dirname, '../..')
const work = mkdtempSync(path.join(tmpdir(), 'loris-start-imports-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const LATER = ['node-llama-cpp', 'stripe', 'nodemailer', 'pg', 'xlsx', 'mammoth', 'unpdf']

it('starts and answers without loading the packages only some requests need', async () => {
  const record = path.join(work, 'imports.txt')
  const port = await freePort()
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './tests/helpers/record-imports.mjs', 'src/server/main.ts'],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        RECORD_IMPORTS: record,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(work, 'data'),
        SESSION_SECRET: 'start-imports-secret-start-imports-secret-0123',
        LOG_LEVEL: 'warn',
        // Configured, so only laziness keeps them out (the eco engine is on by default).
        STRIPE_SECRET_KEY: 'sk_test_start_imports',
        SMTP_URL: 'smtp://127.0.0.1:9',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let stderr = ''
  server.stderr?.on('data', (d) => {
    stderr += String(d)
  })
  try {
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited: ${stderr}`)
      const up = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => r.ok)
        .catch(() => false)
      if (up) break
      await new Promise((r) => setTimeout(r, 100))
    }
    const config = await fetch(`http://127.0.0.1:${port}/api/config`)
    expect(config.ok).toBe(true)
  } finally {
    server.kill('SIGTERM')
    if (server.exitCode === null) await new Promise((r) => server.once('exit', r))
  }
  const packages = new Set(
    readFileSync(record, 'utf8')
      .split('\n')
      .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
      .filter(Boolean),
  )
  // The recording works: what every start needs is there.
  expect(packages).toContain('hono')
  expect(packages).toContain('@electric-sql/pglite')
  expect(LATER.filter((name) => packages.has(name))).toEqual([])
}, 180_000)
