// `npm test`, the one gate: typecheck, lint, build, unit/API tests, the API suite on a real
// PostgreSQL server, then browser tests. Every step runs; the last line sums them up.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { buildIsCurrent, root } from './build-stamp.mjs'

const node = process.execPath
const reports = path.join(root, '.tmp/reports')
rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })

const results = []
function step(name, cmd, args, { report, env } = {}) {
  console.info(`\n=== ${name} ===`)
  const started = Date.now()
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  let passed = r.status === 0 ? 1 : 0
  let failed = r.status === 0 ? 0 : 1
  if (report && existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'))
    passed = json.numPassedTests
    // A crashed file counts as a failure even when none of its tests ran.
    failed = json.numFailedTests + (r.status !== 0 && json.numFailedTests === 0 ? 1 : 0)
  }
  results.push({ name, passed, failed, seconds: Math.round((Date.now() - started) / 1000) })
}

const vitest = (projects, report, extra = []) => [
  'node_modules/vitest/vitest.mjs',
  'run',
  ...projects.flatMap((p) => ['--project', p]),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...extra,
]

step('typecheck', node, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'])
step('lint', node, ['node_modules/@biomejs/biome/bin/biome', 'check', '.'])
if (!buildIsCurrent()) step('build', node, ['scripts/build.mjs'])
const unitReport = path.join(reports, 'unit.json')
// `unit-alone` runs after `unit`: its files measure time and run one at a time (vitest.config.ts).
step('unit and API tests', node, vitest(['unit', 'unit-alone'], unitReport), { report: unitReport })
const pgReport = path.join(reports, 'pg.json')
step(
  'API tests on PostgreSQL',
  node,
  ['scripts/test-pg.mjs', '--reporter=default', '--reporter=json', `--outputFile.json=${pgReport}`],
  {
    report: pgReport,
  },
)
const e2eReport = path.join(reports, 'e2e.json')
step('browser tests', node, vitest(['e2e'], e2eReport), { report: e2eReport })

console.info('\n=== summary ===')
for (const r of results)
  console.info(`${r.name.padEnd(28)} ${r.passed} passed, ${r.failed} failed (${r.seconds} s)`)
const passed = results.reduce((n, r) => n + r.passed, 0)
const failed = results.reduce((n, r) => n + r.failed, 0)
console.info(`\nTests: ${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
