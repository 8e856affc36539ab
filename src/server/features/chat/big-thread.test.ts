import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { worstStalls } from '../../../../tests/helpers/stall.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { twoBranchThread } from '../../../../tests/helpers/thread-kit.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({}, {}, { pgliteThread: true })
}, 60_000)
afterAll(() => t?.close())

describe('explore', () => {
  it('measures', async () => {
    let s = performance.now()
    const big = await twoBranchThread(t, 5000)
    console.log('seed', performance.now() - s)
    const db = t.deps.database.db
    for (const id of [big.b.at(-1)!, big.a[0]!]) {
      const r = await worstStalls(db, async () => {
        const res = await t.request(`/api/messages/${id}/select`, { method: 'POST', cookie: big.cookie })
        const body = await res.text()
        return { status: res.status, size: body.length }
      })
      console.log('select', r)
    }
    const r = await worstStalls(db, async () => {
      const res = await t.request(`/api/messages?threadId=${big.thread.id}&limit=30`, { cookie: big.cookie })
      return { status: res.status, size: (await res.text()).length }
    })
    console.log('page', r)
    for (const f of ['json', 'markdown']) {
      const r2 = await worstStalls(db, async () => {
        const res = await t.request(`/api/threads/${big.thread.id}/export?format=${f}`, { cookie: big.cookie })
        return { status: res.status, size: (await res.text()).length }
      })
      console.log('export', f, r2)
    }
  }, 300_000)
})
