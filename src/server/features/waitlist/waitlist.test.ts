import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitlistResponse } from '#contract/waitlist.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { listWaitlist } from './queries.ts'
import { WAITLIST_LIMIT } from './routes.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

// Each test speaks from its own address so the per-IP limit of one test never trips another.
let ipCounter = 0
function nextIp() {
  ipCounter += 1
  return `203.0.113.${ipCounter}`
}

function join(body: unknown, ip: string) {
  return t.request('/api/waitlist', { method: 'POST', json: body, headers: { 'x-forwarded-for': ip } })
}

async function emails() {
  return (await listWaitlist(t.deps.database.db)).map((r) => r.email)
}

describe('POST /api/waitlist', () => {
  it('stores a new address, trimmed and lower-cased, and answers ok', async () => {
    const res = await join({ email: '  Ada.Lovelace@Example.COM ' }, nextIp())
    expect(res.status).toBe(200)
    expect(waitlistResponse.parse(await res.json())).toEqual({ ok: true })
    expect(await emails()).toContain('ada.lovelace@example.com')
  })

  it('treats a repeat as the same friendly success and keeps one row', async () => {
    const ip = nextIp()
    const first = await join({ email: 'repeat@example.com' }, ip)
    const again = await join({ email: 'REPEAT@example.com' }, ip)
    expect(again.status).toBe(first.status)
    expect(await again.json()).toEqual(await first.json())
    expect((await emails()).filter((e) => e === 'repeat@example.com')).toHaveLength(1)
  })

  it.each([
    [{ email: 'no-at-sign' }, 'Please enter a valid email address'],
    [{ email: 'a@b' }, 'Please enter a valid email address'],
    [{ email: '' }, 'Please enter a valid email address'],
    [{}, 'Please enter your e-mail address'],
    [{ email: `${'x'.repeat(250)}@example.com` }, 'That e-mail address is too long'],
  ])('rejects %j with a message a person can act on', async (body, message) => {
    const before = (await emails()).length
    const res = await join(body, nextIp())
    expect(res.status).toBe(400)
    const json = (await res.json()) as { error: string; code: string }
    expect(json.code).toBe('bad_request:input')
    expect(json.error).toBe(message)
    expect((await emails()).length).toBe(before)
  })

  it('answers a filled honeypot exactly like a person but stores nothing', async () => {
    const ip = nextIp()
    const bot = await join({ email: 'bot@spam.example', website: 'https://spam.example' }, ip)
    const person = await join({ email: 'person@example.com', website: '' }, ip)
    expect(bot.status).toBe(person.status)
    expect(await bot.json()).toEqual(await person.json())
    const stored = await emails()
    expect(stored).not.toContain('bot@spam.example')
    expect(stored).toContain('person@example.com')
  })

  it('limits sign-ups per address and leaves other addresses alone', async () => {
    const ip = nextIp()
    for (let i = 0; i < WAITLIST_LIMIT.limit; i++) {
      expect((await join({ email: `burst${i}@example.com` }, ip)).status).toBe(200)
    }
    const limited = await join({ email: 'one-too-many@example.com' }, ip)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await limited.json()) as { error: string }).error).toBe(
      'Too many sign-ups from your network. Please try again later.',
    )
    expect(await emails()).not.toContain('one-too-many@example.com')
    expect((await join({ email: 'neighbour@example.com' }, nextIp())).status).toBe(200)
  })
})
