// `npm run test:pg`: the API suite against a real PostgreSQL server. Uses TEST_DATABASE_URL
// when set (an admin URL: each test file creates and drops its own database), otherwise starts
// a throwaway local server.
import { spawnSync } from 'node:child_process'
import { startPostgres } from './postgres-server.mjs'

// Files (or vitest options) given: only those; none: the whole API suite.
const extraArgs = process.argv.slice(2)
const files = extraArgs.filter((a) => !a.startsWith('-'))
let server
let url = process.env.TEST_DATABASE_URL
if (!url) {
  server = await startPostgres()
  url = server.url
}
let status = 1
try {
  const r = spawnSync(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--project',
      'unit',
      ...(files.length ? [] : ['src/server']),
      ...extraArgs,
    ],
    { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: url } },
  )
  status = r.status ?? 1
} finally {
  server?.stop()
}
process.exit(status)
