// One transcription budget: POST /api/transcribe and audio attachments on
// POST /api/messages spend from the same 30-per-10-minutes budget per user.
import { readFile } from 'node:fs/promises'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { messages, uploads } from '#server/db/schema/index.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents } from '../../../../tests/helpers/chat.ts'
import { TRANSCRIBE_BUDGET, TRANSCRIBE_REFUSAL } from './budget.ts'

const app = setUpAiTestApp(() => ({ TRANSCRIBE_ENGINE: 'pocketsphinx' }))

const db = () => app.t.deps.database.db
const recording = async () => new Uint8Array(await readFile('tests/fixtures/goforward.webm'))

async function sendAudio(cookie: string, name: string, type?: string) {
  const body = new FormData()
  body.set('isEcoMode', 'false')
  body.set('useOpenAI', 'false')
  body.set('content', '')
  body.set(
    'audio',
    new File([(await recording()) as Uint8Array<ArrayBuffer>], name, type ? { type } : undefined),
  )
  return app.t.request('/api/messages', { method: 'POST', cookie, body })
}

function transcribe(cookie: string) {
  return recording().then((bytes) => {
    const body = new FormData()
    body.set('audio', new File([bytes as Uint8Array<ArrayBuffer>], 'recording.webm', { type: 'audio/webm' }))
    return app.t.request('/api/transcribe', { method: 'POST', cookie, body })
  })
}

/** Spends `n` of the user's transcription budget as earlier recordings would have. */
const spent = (userId: string, n: number) =>
  db().execute(
    sql`insert into rate_limits (key, window_start, count) values (${`transcribe:${userId}`}, now(), ${n})`,
  )
const budgetUsed = async (userId: string) => {
  const result = (await db().execute(
    sql`select count from rate_limits where key = ${`transcribe:${userId}`}`,
  )) as unknown as { rows: { count: number }[] }
  return Number(result.rows[0]?.count ?? 0)
}

/** A signed-up person who has spent `count` of the transcription budget. */
async function personWhoSpent(count: number) {
  const { cookie, user } = await app.t.signUp()
  const userId = user.id as string
  await spent(userId, count)
  return { cookie, userId }
}

describe('one transcription budget for /api/transcribe and audio attachments', () => {
  it('an audio attachment spends the budget /api/transcribe then finds spent', async () => {
    const { cookie, userId } = await personWhoSpent(TRANSCRIBE_BUDGET.limit - 1)
    const res = await sendAudio(cookie, 'voice.webm', 'audio/webm')
    expect(res.status).toBe(200)
    expect((await readEvents(res)).at(-1)).toMatchObject({ done: true })
    expect(await budgetUsed(userId)).toBe(TRANSCRIBE_BUDGET.limit)
    const refused = await transcribe(cookie)
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({ code: 'rate_limited:request', message: TRANSCRIBE_REFUSAL })
  })

  it('refuses an audio attachment once /api/transcribe spent the budget, before any work', async () => {
    const { cookie, userId } = await personWhoSpent(TRANSCRIBE_BUDGET.limit)
    const res = await sendAudio(cookie, 'voice.webm', 'audio/webm')
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await res.json()).toMatchObject({ code: 'rate_limited:request', message: TRANSCRIBE_REFUSAL })
    // Nothing was stored, nothing reached a model, and the refusal did not count.
    expect(await db().select().from(uploads).where(eq(uploads.userId, userId))).toHaveLength(0)
    expect(await db().select().from(messages).where(eq(messages.userId, userId))).toHaveLength(0)
    expect(app.ai.requests).toHaveLength(0)
    expect(await budgetUsed(userId)).toBe(TRANSCRIBE_BUDGET.limit)
  })

  it('a recording sent under another name is still refused before it is transcribed', async () => {
    const { cookie, userId } = await personWhoSpent(TRANSCRIBE_BUDGET.limit)
    const res = await sendAudio(cookie, 'notes.bin', 'application/octet-stream')
    expect(res.status).toBe(429)
    expect((await res.json()).message).toBe(TRANSCRIBE_REFUSAL)
    expect(await db().select().from(messages).where(eq(messages.userId, userId))).toHaveLength(0)
    expect(app.ai.requests).toHaveLength(0)
  })
})
