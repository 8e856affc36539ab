// `npm run test:pg`: the API suite against a real PostgreSQL server. Uses TEST_DATABASE_URL
// when set (an admin URL: each test file creates and drops its own database), otherwise starts
// a throwaway local server, stopped however this ends: the tests' end, an error, Ctrl-C or a kill.
import { spawn } from 'node:child_process'
import { startPostgres } from './postgres-server.mjs'
import { testFilesWhose } from './test-files.mjs'

/**
 * The server's test files whose database follows TEST_DATABASE_URL: those that open it through the
 * test helpers (or read the variable). The others (parsers, the wire, PGlite's own thread and
 * template, start-up) run no differently here and already ran in the unit step: about a third of
 * the files and a minute and a half of CI, for nothing.
 */
function filesOnTheTestDatabase() {
  const opensIt = /test-app\.ts|ai-test-app\.ts|billing-test-kit\.ts|thread-kit\.ts|TEST_DATABASE_URL/
  return testFilesWhose(['src/server'], (text) => opensIt.test(text))
}

// Files (or vitest options) given: only those; none: the whole API suite.
const extraArgs = process.argv.slice(2)
const files = extraArgs.filter((a) => !a.startsWith('-'))
let server
const stopServer = () => {
  const s = server
  server = undefined
  s?.stop()
}
let tests
process.once('exit', stopServer)
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    tests?.kill(signal)
    process.exit(1)
  })

let url = process.env.TEST_DATABASE_URL
if (!url) {
  server = await startPostgres()
  url = server.url
}
tests = spawn(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--project',
    'unit',
    '--project',
    'unit-alone',
    ...(files.length ? [] : filesOnTheTestDatabase()),
    ...extraArgs,
  ],
  { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: url } },
)
const status = await new Promise((resolve) => {
  tests.once('error', () => resolve(1))
  tests.once('exit', (code) => resolve(code ?? 1))
})
process.exit(status)
