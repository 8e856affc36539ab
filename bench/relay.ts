// Time to first token and mean inter-token delay through Loris (a real HTTP server on loopback:
// session, database writes, AI SDK, SSE relay) versus reading the stand-in model directly, at 1
// and at 200 concurrent streams. Everything runs in this process on 127.0.0.1.
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import pino from 'pino'
import { parseChatEventLine } from '#contract/chat-events.ts'
import { createApp } from '#server/app.ts'
import { openDatabase } from '#server/db/client.ts'
import { parseEnv } from '#server/env.ts'
import { startAiStandIn } from '../tests/stand-ins/ai-providers.ts'
import { askGemini, geminiStreamUrl, readSse } from './support/direct.ts'

const CHUNK_DELAY_MS = 20
const SEQUENTIAL_RUNS = 20
const CONCURRENT = 200
// The whole bench gives up after this: it must never hang a terminal or CI job.
const DEADLINE_MS = 120_000
const PROMPT = 'Benchmark prompt: please echo these words back so the reply arrives as several chunks of text'

interface Sample {
  ttftMs: number
  gapsMs: number[]
}

/** Reads an SSE body, calling `onData` for each `data:` payload; an error answer throws. */
async function readOkSse(res: Response, onData: (data: string) => void): Promise<void> {
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}: ${await res.text()}`)
  await readSse(res, onData)
}

async function timeStream(
  start: () => Promise<Response>,
  isToken: (data: string) => boolean,
): Promise<Sample> {
  const t0 = performance.now()
  const arrivals: number[] = []
  await readOkSse(await start(), (data) => {
    if (isToken(data)) arrivals.push(performance.now())
  })
  if (arrivals.length === 0) throw new Error('no tokens arrived')
  const gapsMs = arrivals.slice(1).map((t, i) => t - (arrivals[i] as number))
  return { ttftMs: (arrivals[0] as number) - t0, gapsMs }
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN)
const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

function report(label: string, samples: Sample[]) {
  const ttft = samples.map((s) => s.ttftMs)
  const gaps = samples.flatMap((s) => s.gapsMs)
  return {
    path: label,
    streams: samples.length,
    'ttft mean ms': mean(ttft).toFixed(1),
    'ttft p50 ms': pct(ttft, 50).toFixed(1),
    'ttft p95 ms': pct(ttft, 95).toFixed(1),
    'inter-token mean ms': mean(gaps).toFixed(1),
  }
}

/** A plain-text table (console.table is not allowed by our lint rules). */
function formatTable(rows: Record<string, string | number>[]): string {
  const keys = Object.keys(rows[0] ?? {})
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')
  return [
    line(keys),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(keys.map((k) => String(r[k])))),
  ].join('\n')
}

async function measure(n: number, concurrent: boolean, one: () => Promise<Sample>): Promise<Sample[]> {
  if (concurrent) return Promise.all(Array.from({ length: n }, one))
  const out: Sample[] = []
  for (let i = 0; i < n; i++) out.push(await one())
  return out
}

export async function run(): Promise<void> {
  const deadline = setTimeout(() => {
    console.error(`relay bench: gave up after ${DEADLINE_MS / 1000} s`)
    process.exit(1)
  }, DEADLINE_MS)
  const standIn = await startAiStandIn()
  standIn.setChunkDelayMs(CHUNK_DELAY_MS)
  const database = await openDatabase({})
  const env = parseEnv({
    NODE_ENV: 'production',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    GEMINI_API_KEY: 'bench',
    GEMINI_BASE_URL: standIn.geminiBaseUrl,
    LOG_LEVEL: 'silent',
  })
  const app = createApp({ env, database, log: pino({ level: 'silent' }), secret: env.SESSION_SECRET ?? '' })
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  const loris = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  try {
    const signUp = await fetch(`${loris}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench password 123' }),
    })
    const cookie = signUp.headers.getSetCookie()[0]?.split(';')[0] ?? ''
    if (!signUp.ok || !cookie) throw new Error(`sign-up failed: ${signUp.status}`)

    const viaLoris = () =>
      timeStream(
        () =>
          fetch(`${loris}/api/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie },
            body: JSON.stringify({ content: PROMPT }),
          }),
        (data) => Boolean(parseChatEventLine(`data: ${data}`)?.text),
      )
    const direct = () =>
      timeStream(
        () => askGemini(geminiStreamUrl(standIn.geminiBaseUrl), PROMPT),
        (data) => data.includes('"text"'),
      )

    // Warm-up: JIT, connection pools, the first database queries.
    await viaLoris()
    await direct()
    const rows = []
    for (const [label, concurrent, n] of [
      ['1 stream', false, SEQUENTIAL_RUNS],
      [`${CONCURRENT} streams`, true, CONCURRENT],
    ] as const) {
      rows.push(report(`direct, ${label}`, await measure(n, concurrent, direct)))
      rows.push(report(`Loris, ${label}`, await measure(n, concurrent, viaLoris)))
    }
    console.info(`Stand-in paces chunks ${CHUNK_DELAY_MS} ms apart; database: in-memory PGlite.`)
    console.info(formatTable(rows))
  } finally {
    clearTimeout(deadline)
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      if ('closeAllConnections' in server) server.closeAllConnections()
    })
    await standIn.close()
    await database.close()
  }
}
