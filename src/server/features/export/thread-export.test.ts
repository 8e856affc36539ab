// @runs-alone: measures time on the main thread and the database's, so runs after the other files.
// A thread's export is written a batch at a time (decision 049): a thread of 10,000 exchanges comes
// out whole, as the unbatched format writes it, holding neither the main thread nor the database
// 300 ms at a time; and a person's thread exports are limited like the account's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportedThreadSchema } from '#contract/export.ts'
import { findOwnedThread } from '#server/db/owned-thread.ts'
import { reshowThread } from '#server/features/chat/shown-branch.ts'
import { worstStalls } from '../../../../tests/helpers/stall.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { ownerWithThread, twoBranchThread } from '../../../../tests/helpers/thread-kit.ts'
import { toExportedThread, toMarkdown } from './format.ts'
import { messagesOf } from './queries.ts'
import { THREAD_EXPORTS_PER_HOUR } from './routes.ts'

const STALL_GOAL_MS = 300

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({}, {}, { pgliteThread: true })
}, 60_000)
afterAll(() => t?.close())

describe('GET /api/threads/:id/export of a long thread', () => {
  // The stall includes time the OS did not run a thread: two more tries on a loaded machine.
  it('streams 10,000 exchanges as JSON and Markdown, holding nothing 300 ms', {
    retry: 2,
    timeout: 300_000,
  }, async () => {
    const big = await twoBranchThread(t, 5000)
    const db = t.deps.database.db
    // The body is kept as it comes, read into text after: the guard measures the server's work.
    const download = async (format: string) => {
      const got = await worstStalls(db, async () => {
        const res = await t.request(`/api/threads/${big.thread.id}/export?format=${format}`, {
          cookie: big.cookie,
        })
        const chunks: Uint8Array[] = []
        for await (const chunk of res.body!) chunks.push(chunk)
        return { status: res.status, type: res.headers.get('content-type'), chunks }
      })
      const text = Buffer.concat(got.value.chunks).toString('utf8')
      return { ...got, value: { ...got.value, text } }
    }
    const json = await download('json')
    console.info(`json: loop ${json.stallMs.toFixed(0)} ms, database ${json.dbStallMs.toFixed(0)} ms`)
    expect(json.value.status).toBe(200)
    expect(json.value.type).toContain('application/json')
    const exported = exportedThreadSchema.parse(JSON.parse(json.value.text))
    expect(exported.messages).toHaveLength(10_000)
    // What the unbatched format writes from the whole tree, but for the moment it was written.
    const thread = (await findOwnedThread(db, big.userId, big.thread.id))!
    const whole = toExportedThread(
      thread,
      await messagesOf(db, big.userId, thread),
      new Date(exported.exportedAt),
      {
        withFilePaths: false,
      },
    )
    expect(exported).toEqual(whole)
    expect(exported.messages.find((m) => m.id === big.b[0])).toMatchObject({ version: 2, shown: false })
    expect(json.stallMs).toBeLessThan(STALL_GOAL_MS)
    expect(json.dbStallMs).toBeLessThan(STALL_GOAL_MS)

    const md = await download('markdown')
    console.info(`markdown: loop ${md.stallMs.toFixed(0)} ms, database ${md.dbStallMs.toFixed(0)} ms`)
    expect(md.value.status).toBe(200)
    expect(md.value.type).toContain('text/markdown')
    const exportedAt = /Exported from Loris on (\S+ \S+) UTC/.exec(md.value.text)?.[1]
    expect(md.value.text).toBe(toMarkdown({ ...whole, exportedAt: `${exportedAt?.replace(' ', 'T')}.000Z` }))
    expect(md.value.text).toContain('5000 exchanges')
    expect(md.value.text.match(/^## You · /gm)).toHaveLength(5000)
    expect(md.stallMs).toBeLessThan(STALL_GOAL_MS)
    expect(md.dbStallMs).toBeLessThan(STALL_GOAL_MS)
  })

  it(`answers 429 past ${THREAD_EXPORTS_PER_HOUR} thread exports an hour, saying when to try again`, async () => {
    const owner = await ownerWithThread(t)
    await owner.add('one', 'reply')
    await reshowThread(t.deps.database.db, owner.thread.id)
    for (let i = 0; i < THREAD_EXPORTS_PER_HOUR; i++) {
      const format = i % 2 ? 'json' : 'markdown'
      const res = await t.request(`/api/threads/${owner.thread.id}/export?format=${format}`, {
        cookie: owner.cookie,
      })
      expect(res.status).toBe(200)
      await res.arrayBuffer()
    }
    const refused = await t.request(`/api/threads/${owner.thread.id}/export`, { cookie: owner.cookie })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await refused.json()).message).toMatch(
      new RegExp(
        `export threads ${THREAD_EXPORTS_PER_HOUR} times an hour\\. Please try again in \\d+ minutes`,
      ),
    )
  })
})
