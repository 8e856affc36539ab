// Bad input, case by case: each request a fuzz has found answering 500 gets a clear 400
// `{ code, message }` (the property-based fuzz in app.fuzz.test.ts covers the rest).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.ts'

let t: TestApp
let cookie: string
let threadId: string
beforeAll(async () => {
  t = await createTestApp()
  cookie = (await t.signUp()).cookie
  const threads = await (await t.request('/api/threads', { cookie })).json()
  threadId = threads[0].id
})
afterAll(() => t?.close())

async function expect400(res: Response, message: RegExp) {
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(400)
  expect(body.code).toMatch(/^bad_request:/)
  expect(body.message).toMatch(message)
}

const raw = (path: string, contentType: string, body: string) =>
  t.request(path, { method: 'POST', cookie, headers: { 'content-type': contentType }, body })

describe('malformed bodies', () => {
  it('POST /api/messages with malformed JSON', async () => {
    await expect400(await raw('/api/messages', 'application/json', '{"content": "hi'), /not valid JSON/)
  })

  it.each(['/api/messages', '/api/transcribe'])('%s with multipart but no boundary', async (path) => {
    await expect400(await raw(path, 'multipart/form-data', 'content=hello'), /form data could not be read/)
  })

  it.each(['/api/messages', '/api/transcribe'])('%s with a truncated multipart body', async (path) => {
    const b = 'XyZ'
    const body = `--${b}\r\nContent-Disposition: form-data; name="audio"; filename="a.webm"\r\n\r\nhalf of a recor`
    await expect400(
      await raw(path, `multipart/form-data; boundary=${b}`, body),
      /form data could not be read/,
    )
  })
})

describe('U+0000 in text PostgreSQL cannot store', () => {
  it('in a message', async () => {
    const res = await t.request('/api/messages', { method: 'POST', cookie, json: { content: 'a\u0000b' } })
    await expect400(res, /message contains a NUL character/)
  })

  it('in a multipart message', async () => {
    const form = new FormData()
    form.append('content', 'a\u0000b')
    await expect400(await t.request('/api/messages', { method: 'POST', cookie, body: form }), /NUL character/)
  })

  it('in an idempotency key', async () => {
    const res = await t.request('/api/messages', {
      method: 'POST',
      cookie,
      json: { content: 'hello', clientMessageId: 'key\u0000' },
    })
    await expect400(res, /clientMessageId contains a NUL character/)
  })

  it('in a thread title', async () => {
    const res = await t.request(`/api/threads/${threadId}/rename`, {
      method: 'PUT',
      cookie,
      json: { title: 'a\u0000b' },
    })
    // The Default thread cannot be renamed, but the title is checked first.
    await expect400(res, /title contains a NUL character/)
  })
})

describe('GET /api/subscription/status without Stripe', () => {
  it('is 401 without a session and 200, not subscribed, with one', async () => {
    expect((await t.request('/api/subscription/status')).status).toBe(401)
    const res = await t.request('/api/subscription/status', { cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      isSubscribed: false,
      subscription: { current_period_end: null, status: null },
    })
  })
})
