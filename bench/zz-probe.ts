import { worstStalls } from '../tests/helpers/stall.ts'
import { createTestApp } from '../tests/helpers/test-app.ts'
import { twoBranchThread } from '../tests/helpers/thread-kit.ts'
const t = await createTestApp({}, {}, { pgliteThread: true })
const big = await twoBranchThread(t, 5000)
const db = t.deps.database.db as any
const orig = db.transaction.bind(db)
const origEx = db.execute.bind(db)
let log: string[] = []
db.transaction = async (fn: any) => { const s = performance.now(); const r = await orig(fn); log.push('tx' + Math.round(performance.now() - s)); return r }
for (let i = 0; i < 2; i++) {
  const id = i % 2 === 0 ? big.b.at(-1)! : big.a[0]!
  log = []
  const r = await worstStalls({ execute: origEx }, async () => { const res = await t.request(`/api/messages/${id}/select`, { method: 'POST', cookie: big.cookie }); await res.text(); return res.status })
  console.log(r.value, Math.round(r.stallMs), Math.round(r.dbStallMs), log.join(' '))
}
await t.close()
process.exit(0)
