import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#server/db/client.ts'
import { toCsv } from './csv.ts'
import { joinWaitlist } from './queries.ts'

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../../../..')
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'loris-waitlist-'))
  const database = await openDatabase({ dataDir })
  await joinWaitlist(database.db, 'first@example.com')
  await joinWaitlist(database.db, 'second@example.com')
  await joinWaitlist(database.db, 'first@example.com')
  await database.close()
})
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

function exportList(args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/waitlist-export.ts', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  })
}

describe('npm run waitlist:export', () => {
  it('prints the list as CSV, oldest first, each address once', async () => {
    const { stdout } = await exportList([])
    const lines = stdout.trimEnd().split('\r\n')
    expect(lines[0]).toBe('email,joined_at')
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['first@example.com', 'second@example.com'])
    for (const line of lines.slice(1)) expect(Number.isNaN(Date.parse(line.split(',')[1] ?? ''))).toBe(false)
  })

  it('writes to --out', async () => {
    const out = path.join(dataDir, 'list.csv')
    const { stdout, stderr } = await exportList(['--out', out])
    expect(stdout).toBe('')
    expect(stderr).toContain('Wrote 2 waitlist entries')
    expect(readFileSync(out, 'utf8')).toContain('second@example.com')
  })
})

describe('toCsv', () => {
  it('quotes separators and neutralises formula-like cells', () => {
    const at = new Date('2026-01-02T03:04:05Z')
    expect(toCsv([{ email: '"a,b"@example.com', createdAt: at }])).toBe(
      'email,joined_at\r\n"""a,b""@example.com",2026-01-02T03:04:05.000Z\r\n',
    )
    expect(toCsv([{ email: '=1+1@example.com', createdAt: at }])).toContain("'=1+1@example.com,")
  })
})
