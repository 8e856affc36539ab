// Bad input, by property: every route of the app, found from the Hono app itself (a new route is
// fuzzed without editing this file), is sent arbitrary and malformed input, signed in and not.
// Nothing may answer 5xx, and every error is the one `{ code, message }` shape.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorBodySchema } from '#contract/errors.ts'
import { createTestApp, sessionCookie, TEST_ORIGIN, type TestApp } from '../../tests/helpers/test-app.ts'
import { type AiStandIn, startAiStandIn } from '../../tests/stand-ins/ai-providers.ts'
import { type StripeStandIn, startStripeStandIn } from '../../tests/stand-ins/stripe.ts'

let t: TestApp
let ai: AiStandIn
let stripe: StripeStandIn
let cookie = ''
let accounts = 0
const password = 'fuzzing password 1'

/**
 * A signed-in user for the next run, made afresh when a run signed the last one out or deleted
 * it. From its own address, so the fuzz's own sign-in guesses never throttle it.
 */
async function ensureSession() {
  if (cookie && (await t.request('/api/user', { cookie })).status === 200) return
  accounts += 1
  const email = `fuzz${accounts}@example.com`
  const headers = { 'x-forwarded-for': `10.99.${Math.floor(accounts / 250)}.${accounts % 250}` }
  const res = await t.request('/api/register', { method: 'POST', json: { email, password }, headers })
  if (res.status !== 201) throw new Error(`fuzz user sign-up failed: ${res.status} ${await res.text()}`)
  cookie = sessionCookie(res)
}

beforeAll(async () => {
  ai = await startAiStandIn()
  ai.setChunkDelayMs(0)
  stripe = await startStripeStandIn()
  t = await createTestApp({
    GEMINI_API_KEY: 'test',
    GEMINI_BASE_URL: ai.geminiBaseUrl,
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: ai.openaiBaseUrl,
    ECO_BASE_URL: ai.openaiBaseUrl,
    ECO_MODEL: 'loris-eco-test',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_PRICE_ID: stripe.priceId,
    STRIPE_API_URL: stripe.url,
  })
  await ensureSession()
}, 60_000)
afterAll(async () => {
  await t?.close()
  await stripe?.close()
  await ai?.close()
})

interface Route {
  method: string
  path: string
}

/** Every concrete route the app serves under /api and /auth, straight from Hono's table. */
function appRoutes(): Route[] {
  const seen = new Map<string, Route>()
  for (const r of t.app.routes) {
    if (r.method === 'ALL' || r.path.includes('*')) continue
    if (!r.path.startsWith('/api/') && !r.path.startsWith('/auth/')) continue
    seen.set(`${r.method} ${r.path}`, { method: r.method, path: r.path })
  }
  return [...seen.values()]
}

// Strings a database or a header cannot take as they are, and some that look like ids.
const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '🦥🌍\u{1F9A5}',
    '\uD800',
    'é日本語',
    '00000000-0000-0000-0000-000000000000',
    crypto.randomUUID(),
    '../../etc/passwd',
    "'; drop table users; --",
    '%00',
    'x'.repeat(5000),
  ),
)

// Page cursors as the server writes them (base64url JSON), holding what it never wrote: moments
// that do not exist, numbers a `real` cannot hold, hostile strings.
const cursorPart = fc.oneof(
  nasty,
  fc.constantFrom(
    '2024-13-45T99:99:99.000000Z',
    '2023-02-29T10:00:00.000000Z',
    '1e39',
    '1e-50',
    'NaN',
    't',
    'f',
  ),
  fc.constant(crypto.randomUUID()),
)
const cursorLike = fc
  .oneof(
    fc.array(cursorPart, { maxLength: 4 }),
    fc.record({ rank: cursorPart, at: cursorPart, id: cursorPart }, { requiredKeys: [] }),
  )
  .map((value) => Buffer.from(JSON.stringify(value)).toString('base64url'))

const jsonValue = fc.jsonValue({ maxDepth: 3 })
// Objects shaped like the contract's bodies, with hostile values.
const fieldsLike = fc.record(
  {
    email: fc.oneof(nasty, fc.constant('someone@example.com')),
    password: nasty,
    content: nasty,
    title: nasty,
    threadId: fc.oneof(nasty, fc.constant(null)),
    clientMessageId: nasty,
    messageId: nasty,
    isFavorite: fc.oneof(fc.boolean(), nasty),
    isEcoMode: fc.oneof(fc.boolean(), nasty),
    useOpenAI: fc.oneof(fc.boolean(), nasty),
    token: nasty,
    website: nasty,
  },
  { requiredKeys: [] },
)

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw-json'; text: string }
  | {
      kind: 'multipart'
      fields: Record<string, string>
      file?: { field: string; name: string; bytes: Uint8Array }
    }
  | { kind: 'multipart-no-boundary'; text: string }
  | { kind: 'multipart-truncated'; fields: Record<string, string> }
  | { kind: 'text'; text: string }

const bodyArb: fc.Arbitrary<Body> = fc.oneof(
  fc.constant({ kind: 'none' } as const),
  jsonValue.map((value) => ({ kind: 'json', value }) as const),
  fieldsLike.map((value) => ({ kind: 'json', value }) as const),
  fc
    .oneof(
      fc.string(),
      fc.constantFrom('{', '{"content":', '[1,', '{"a":1}}', 'nul', '\u0000', '{"content":"\\u0000"}'),
    )
    .map((text) => ({ kind: 'raw-json', text }) as const),
  fc
    .record({
      fields: fc.dictionary(
        fc.constantFrom('content', 'threadId', 'isEcoMode', 'clientMessageId', 'title'),
        nasty,
      ),
      file: fc.option(
        fc.record({
          field: fc.constantFrom('image', 'audio', 'file'),
          name: nasty,
          bytes: fc.uint8Array({ maxLength: 512 }),
        }),
        { nil: undefined },
      ),
    })
    .map((m) => ({ kind: 'multipart', ...m }) as const),
  fc.string().map((text) => ({ kind: 'multipart-no-boundary', text }) as const),
  fc
    .dictionary(fc.constantFrom('content', 'threadId'), fc.string())
    .map((fields) => ({ kind: 'multipart-truncated', fields }) as const),
  nasty.map((text) => ({ kind: 'text', text }) as const),
)

function encode(body: Body): { headers: Record<string, string>; body?: BodyInit } {
  switch (body.kind) {
    case 'none':
      return { headers: {} }
    case 'json':
      return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body.value) }
    case 'raw-json':
      return { headers: { 'content-type': 'application/json' }, body: body.text }
    case 'multipart': {
      const form = new FormData()
      for (const [k, v] of Object.entries(body.fields)) form.append(k, v)
      if (body.file)
        form.append(body.file.field, new Blob([new Uint8Array(body.file.bytes)]), body.file.name || 'f')
      return { headers: {}, body: form }
    }
    case 'multipart-no-boundary':
      return { headers: { 'content-type': 'multipart/form-data' }, body: body.text }
    case 'multipart-truncated': {
      const boundary = '----loris-fuzz'
      const parts = Object.entries(body.fields).map(
        ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
      )
      const whole = `${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhalf a fi`
      return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: whole }
    }
    case 'text':
      return { headers: { 'content-type': 'text/plain' }, body: body.text }
  }
}

/**
 * Fills :params with the given values, percent-encoded as a client would send them; a lone
 * surrogate (no UTF-8 form) becomes the invalid UTF-8 a hostile client could send instead.
 */
function fillPath(path: string, params: string[]): string {
  let i = 0
  return path.replace(/:[A-Za-z]+/g, () => {
    const value = params[i++ % params.length] ?? 'x'
    try {
      return encodeURIComponent(value)
    } catch {
      return '%ED%A0%80%FF'
    }
  })
}

async function send(
  route: Route,
  method: string,
  params: string[],
  query: [string, string][],
  body: Body,
  signedIn: boolean,
) {
  const url = new URL(fillPath(route.path, params), TEST_ORIGIN)
  for (const [k, v] of query) url.searchParams.append(k, v.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))
  const encoded = encode(body)
  const headers = new Headers({ origin: TEST_ORIGIN, ...encoded.headers })
  if (signedIn) headers.set('cookie', cookie)
  const hasBody = method !== 'GET' && method !== 'HEAD' && encoded.body !== undefined
  const res = await t.app.request(url.href, { method, headers, body: hasBody ? encoded.body : undefined })
  // The whole answer is read: a stream that fails late is a failure too.
  const text = await res.text()
  return {
    res,
    text,
    label: `${method} ${url.pathname}${url.search} ${body.kind} ${signedIn ? 'signed in' : 'visitor'}`,
  }
}

function expectWellFormed({ res, text, label }: Awaited<ReturnType<typeof send>>) {
  expect(res.status, `${label} -> ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500)
  if (res.status >= 400) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = text
    }
    expect(errorBodySchema.safeParse(parsed).success, `${label} -> ${res.status} ${text.slice(0, 300)}`).toBe(
      true,
    )
  }
}

const SESSION_ENDING = new Set(['/api/logout', '/api/delete-account'])

describe('every route, any input', () => {
  it('finds the routes from the app', () => {
    const paths = appRoutes().map((r) => `${r.method} ${r.path}`)
    expect(paths).toContain('POST /api/messages')
    expect(paths).toContain('POST /api/transcribe')
    expect(paths).toContain('POST /api/stripe/webhook')
    expect(paths.length).toBeGreaterThan(30)
  })

  // Each known-bad class, on each route, signed in and not: the cases the fuzz found.
  it('answers every malformed class on every route with a 4xx { code, message }', async () => {
    const fixed: Body[] = [
      { kind: 'raw-json', text: '{"content": "unterminated' },
      { kind: 'multipart-no-boundary', text: 'content=hello' },
      { kind: 'multipart-truncated', fields: { content: 'hello' } },
      {
        kind: 'json',
        value: { content: 'a\u0000b', title: 'a\u0000b', clientMessageId: 'k\u0000', email: 'a@b.c' },
      },
      { kind: 'json', value: { content: '🦥 é 日本語', title: '🦥', clientMessageId: '🦥' } },
      {
        kind: 'multipart',
        fields: { content: 'x\u0000' },
        file: { field: 'file', name: 'n\u0000.txt', bytes: new Uint8Array([0, 1, 2]) },
      },
    ]
    for (const route of appRoutes()) {
      for (const body of fixed) {
        for (const signedIn of [false, true]) {
          if (signedIn) await ensureSession()
          expectWellFormed(
            await send(route, route.method, ['a\u0000', '🦥'], [['threadId', 'x\u0000']], body, signedIn),
          )
        }
      }
    }
  }, 120_000)

  // Page cursors and searches the server never wrote, on every route that reads a query.
  it('answers cursors it did not write and searches it cannot store with a 4xx on every GET route', async () => {
    const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const id = crypto.randomUUID()
    const queries: [string, string][][] = [
      [['q', 'a\u0000b']],
      [['cursor', cursor(['f', '2024-13-45T99:99:99.000000Z', id])]],
      [['cursor', cursor([id])]],
      [
        ['q', 'x'],
        ['cursor', cursor({ rank: '1e39', at: '2026-01-01T00:00:00.000000Z', id })],
      ],
      [
        ['q', 'x'],
        ['cursor', cursor({ rank: '0.5', at: '2023-02-29T10:00:00.000000Z', id })],
      ],
    ]
    await ensureSession()
    for (const route of appRoutes().filter((r) => r.method === 'GET')) {
      for (const query of queries) {
        for (const limit of [[], [['limit', '5']]] as [string, string][][])
          expectWellFormed(await send(route, 'GET', [id], [...query, ...limit], { kind: 'none' }, true))
      }
    }
  }, 120_000)

  it('never answers 5xx to arbitrary requests (property)', async () => {
    const routes = appRoutes()
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.oneof(
          { weight: 4, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
        ),
        fc.array(nasty, { minLength: 1, maxLength: 2 }),
        fc.array(
          fc.tuple(
            fc.constantFrom(
              'threadId',
              'chars',
              'model',
              'from',
              'to',
              'days',
              'code',
              'state',
              'error',
              'q',
              'cursor',
              'limit',
              'x',
            ),
            fc.oneof(nasty, cursorLike),
          ),
          {
            maxLength: 3,
          },
        ),
        bodyArb,
        fc.boolean(),
        async (route, method, params, query, body, signedIn) => {
          if (signedIn) await ensureSession()
          const result = await send(route, method ?? route.method, params, query, body, signedIn)
          expectWellFormed(result)
          if (signedIn && SESSION_ENDING.has(route.path)) cookie = ''
        },
      ),
      {
        numRuns: Number(process.env.FUZZ_RUNS ?? 300),
        seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
      },
    )
  }, 120_000)
})
