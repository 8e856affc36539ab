// @runs-alone: measures time on the main thread, so runs after the other files, one at a time.
// Forms built to hurt the parser (the rule for hostile input, decision 040): as large as the body limit
// allows, made of one-byte fields, to each route that reads a form. Refused with a 400 that says
// why, before the platform's parser builds them all on the main thread, which never stalls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { worstStall } from '../../../tests/helpers/stall.ts'
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts'
import { MAX_FORM_PARTS } from './read-body.ts'

const MAX_STALL_MS = 200
const ROUTES = ['/api/messages', '/api/transcribe', '/api/import']
let t: TestApp
let cookie: string
beforeAll(async () => {
  t = await createTestApp()
  cookie = (await t.signUp()).cookie
  // Each route's first request loads its code: done here, so a test measures only the form.
  for (const path of ROUTES) await post(path, manyFields(1))
})
afterAll(() => t?.close())

const BOUNDARY = 'loris-many-parts'
/** A multipart body of `parts` one-byte fields named `name`. */
function manyFields(parts: number, name = 'x'): Uint8Array {
  const part = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n1\r\n`
  return new TextEncoder().encode(`${part.repeat(parts)}--${BOUNDARY}--\r\n`)
}

function post(path: string, body: Uint8Array, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  return t.request(path, {
    method: 'POST',
    cookie,
    headers: { 'content-type': contentType },
    body: body as Uint8Array<ArrayBuffer>,
  })
}

// The stall includes time the OS did not run the thread at all: two more tries on a loaded machine.
describe('a form of many tiny fields', { retry: 2 }, () => {
  it.each(ROUTES)('is refused by %s with a 400 before it is parsed', async (path) => {
    // About 23 MB: under the 25 MB limit for files, 350,000 fields.
    const body = manyFields(350_000)
    expect(body.length).toBeLessThan(25 * 1024 * 1024)
    const { value: res, stallMs } = await worstStall(() => post(path, body))
    expect(res.status).toBe(400)
    expect((await res.json()).message).toContain(`at most ${MAX_FORM_PARTS}`)
    expect(stallMs).toBeLessThan(MAX_STALL_MS)
  })

  it('is refused url-encoded too', async () => {
    // Under the 1 MB limit for bodies other than files.
    const body = new TextEncoder().encode('x=1&'.repeat(200_000))
    const res = await post('/api/import', body, 'application/x-www-form-urlencoded')
    expect(res.status).toBe(400)
    expect((await res.json()).message).toContain(`at most ${MAX_FORM_PARTS}`)
  })

  it('reads a form of as many parts as allowed', async () => {
    // Fields the route ignores: it goes on to say what it lacks, so the form itself was read.
    const res = await post('/api/transcribe', manyFields(MAX_FORM_PARTS))
    expect(res.status).toBe(400)
    expect((await res.json()).message).not.toContain(`at most ${MAX_FORM_PARTS}`)
  })
})
