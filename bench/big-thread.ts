// A thread of 10,000 exchanges (two branches of 5,000 from its first turn, about 780 characters
// each, as a long imported conversation): the longest the main thread and the embedded database
// (in its worker thread, as shipped) were held at a time by a version switch between the branches,
// by a page of it, and by its export as JSON and as Markdown. Goal: under 300 ms each
// (decisions 048, 049). The figures depend on the machine and on what else runs on it.
//   BENCH_SWITCHES=4 (switches measured, alternating between the branches)
import { worstStalls } from '../tests/helpers/stall.ts'
import { createTestApp } from '../tests/helpers/test-app.ts'
import { twoBranchThread } from '../tests/helpers/thread-kit.ts'

const GOAL_MS = 300
const TURNS = 5000
const SWITCHES = Number(process.env.BENCH_SWITCHES ?? 4)

const verdict = (ms: number) => `(goal < ${GOAL_MS} ms: ${ms < GOAL_MS ? 'met' : 'NOT met'})`

export async function run(): Promise<void> {
  const t = await createTestApp({}, {}, { pgliteThread: true })
  try {
    const seeded = performance.now()
    const big = await twoBranchThread(t, TURNS)
    console.info(`seeded ${TURNS * 2} exchanges in ${((performance.now() - seeded) / 1000).toFixed(1)} s`)
    const db = t.deps.database.db
    const measure = async (path: string, init: { method?: string } = {}) => {
      const { value, stallMs, dbStallMs } = await worstStalls(db, async () => {
        const res = await t.request(path, { ...init, cookie: big.cookie })
        let bytes = 0
        for await (const chunk of res.body!) bytes += chunk.length
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`)
        return bytes
      })
      return { bytes: value, worst: Math.max(stallMs, dbStallMs), stallMs, dbStallMs }
    }
    const line = (name: string, r: Awaited<ReturnType<typeof measure>>) =>
      console.info(
        `${name.padEnd(22)} loop ${r.stallMs.toFixed(0).padStart(4)} ms, database ${r.dbStallMs.toFixed(0).padStart(4)} ms, ${(r.bytes / 1024).toFixed(0)} KB`,
      )
    let select = 0
    for (let i = 0; i < SWITCHES; i++) {
      const id = i % 2 === 0 ? big.b.at(-1)! : big.a[0]!
      const r = await measure(`/api/messages/${id}/select`, { method: 'POST' })
      line(`switch ${i + 1}`, r)
      select = Math.max(select, r.worst)
    }
    const page = await measure(`/api/messages?threadId=${big.thread.id}&limit=30`)
    line('page', page)
    let exported = 0
    for (const format of ['json', 'markdown']) {
      const r = await measure(`/api/threads/${big.thread.id}/export?format=${format}`)
      line(`export ${format}`, r)
      exported = Math.max(exported, r.worst)
    }
    console.info(`largest select stall   ${select.toFixed(0)} ms ${verdict(select)}`)
    console.info(`largest page stall     ${page.worst.toFixed(0)} ms ${verdict(page.worst)}`)
    console.info(`largest export stall   ${exported.toFixed(0)} ms ${verdict(exported)}`)
  } finally {
    await t.close()
  }
}
