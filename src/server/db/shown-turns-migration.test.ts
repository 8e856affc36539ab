// The migration that moves the shown branch into its own table (decision 072) keeps what each
// thread showed: a database written before it opens showing the same exchanges, turn by turn.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { afterAll, describe, expect, it } from 'vitest'
import { migrationsFolder } from './client.ts'
import { pgliteOptions } from './pglite-options.ts'

const work = mkdtempSync(path.join(tmpdir(), 'loris-shown-turns-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The migrations folder as it was before the one tagged `tag`. */
function migrationsBefore(tag: string): string {
  const older = path.join(work, 'migrations')
  cpSync(migrationsFolder, older, { recursive: true })
  const journalFile = path.join(older, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] }
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tag))
  expect(at).toBeGreaterThan(0)
  journal.entries = journal.entries.slice(0, at)
  writeFileSync(journalFile, JSON.stringify(journal))
  return older
}

describe('the shown_turns migration', () => {
  it('shows, turn by turn, what each thread showed with its flags on the rows', async () => {
    const client = new PGlite(pgliteOptions())
    try {
      const db = drizzle({ client })
      await migrate(db, { migrationsFolder: migrationsBefore('_shown_turns') })
      // A thread whose first turn has two versions, the second shown, and a thread-less message.
      await client.exec(`
        insert into users (id, email) values ('00000000-0000-4000-8000-000000000001', 'a@example.com');
        insert into threads (id, user_id, title) values
          ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', 'T');
        insert into messages (id, user_id, thread_id, parent_id, depth, shown, content, chat_model) values
          ('00000000-0000-4000-8000-000000000101', '00000000-0000-4000-8000-000000000001',
            '00000000-0000-4000-8000-0000000000a1', null, 0, false, 'first, old', 'gemini'),
          ('00000000-0000-4000-8000-000000000102', '00000000-0000-4000-8000-000000000001',
            '00000000-0000-4000-8000-0000000000a1', null, 0, true, 'first, new', 'gemini'),
          ('00000000-0000-4000-8000-000000000103', '00000000-0000-4000-8000-000000000001',
            '00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000102', 1, true,
            'second', 'gemini'),
          ('00000000-0000-4000-8000-000000000104', '00000000-0000-4000-8000-000000000001',
            null, null, 0, false, 'outside any thread', 'gemini');
      `)
      await migrate(db, { migrationsFolder })
      const turns = await client.query<{ depth: number; content: string }>(`
        select s.depth, m.content from shown_turns s join messages m on m.id = s.message_id
        where s.thread_id = '00000000-0000-4000-8000-0000000000a1' order by s.depth`)
      expect(turns.rows).toEqual([
        { depth: 0, content: 'first, new' },
        { depth: 1, content: 'second' },
      ])
      const column = await client.query(
        `select 1 from information_schema.columns where table_name = 'messages' and column_name = 'shown'`,
      )
      expect(column.rows).toHaveLength(0)
    } finally {
      await client.close()
    }
  }, 120_000)
})
