// What one import costs everyone else (decision 046): the worst files an account can send, each
// imported through POST /api/import on the embedded database in its own thread, as the server
// runs it. For each: how long the main thread and the database were held at most, the import's
// time and its peak memory over the process's before it. Goal: no hold over 300 ms.
//   BENCH_IMPORT_MESSAGES=10000 (messages of the long thread)
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { strToU8 } from 'fflate'
import { jsonBytes, lorisMessage, lorisThreadExport } from '#server/features/import/loris-export-kit.ts'
import { worstDbStall } from '../tests/helpers/db-stall.ts'
import { prose } from '../tests/helpers/prose.ts'
import { createTestApp, type TestApp } from '../tests/helpers/test-app.ts'

const GOAL_MS = 300
const MESSAGES = Number(process.env.BENCH_IMPORT_MESSAGES ?? 10_000)
const MB = 1024 * 1024

function chatgpt(i: number) {
  const m = (role: string, text: string) => ({
    author: { role },
    content: { content_type: 'text', parts: [text] },
    create_time: 1_700_000_000 + i,
    metadata: {},
  })
  return {
    title: `Conversation ${i}`,
    conversation_id: `c${i}`,
    create_time: 1_700_000_000 + i,
    current_node: 'a',
    mapping: {
      u: { id: 'u', parent: null, children: ['a'], message: m('user', `question ${i} `.repeat(20)) },
      a: { id: 'a', parent: 'u', children: [], message: m('assistant', `answer ${i} `.repeat(80)) },
    },
  }
}

/** The files: name, file name, bytes. */
function files(): Array<[string, string, Uint8Array]> {
  const at = new Date().toISOString()
  // About 380 characters of varied words each (tests/helpers/prose.ts).
  const text = () => prose(46)
  return [
    [
      '1,000,000 entries that are not conversations',
      'conversations.json',
      strToU8(`[${'{},'.repeat(999_999)}{}]`),
    ],
    [
      `one thread of ${MESSAGES.toLocaleString('en-US')} messages`,
      'thread.json',
      jsonBytes(
        lorisThreadExport(
          'Long',
          Array.from({ length: MESSAGES }, (_, i) =>
            lorisMessage(at, { content: `${i} ${text()}`, response: text() }),
          ),
          { at },
        ),
      ),
    ],
    [
      '2,000 conversations',
      'conversations.json',
      jsonBytes(Array.from({ length: 2000 }, (_, i) => chatgpt(i))),
    ],
    [
      '10,001 conversations (refused after the survey)',
      'conversations.json',
      strToU8(`[${Array.from({ length: 10_001 }, (_, i) => JSON.stringify(chatgpt(i))).join(',')}]`),
    ],
  ]
}

async function measure(t: TestApp, name: string, fileName: string, bytes: Uint8Array) {
  const { cookie } = await t.signUp()
  const form = new FormData()
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], fileName))
  // Encoded before anything is measured: that is the client's work.
  const encoded = new Response(form)
  const type = encoded.headers.get('content-type') as string
  const body = new Uint8Array(await encoded.arrayBuffer())
  const loop = monitorEventLoopDelay({ resolution: 10 })
  const rssBefore = process.memoryUsage.rss()
  let peak = rssBefore
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 10)
  const started = performance.now()
  loop.enable()
  const { value: res, stallMs: dbMs } = await worstDbStall(t.deps.database.db, () =>
    t.request('/api/import', { method: 'POST', cookie, body, headers: { 'content-type': type } }),
  )
  await new Promise((resolve) => setTimeout(resolve, 30))
  loop.disable()
  clearInterval(sampler)
  const seconds = (performance.now() - started) / 1000
  const loopMs = loop.max / 1e6
  const answer = (await res.json()) as { threadsImported?: number; message?: string }
  const outcome = res.status === 200 ? `${answer.threadsImported} imported` : `${res.status}`
  console.info(
    `  ${name.padEnd(46)} ${(bytes.length / MB).toFixed(1).padStart(5)} MB  ${outcome.padEnd(12)} ${seconds.toFixed(1).padStart(5)} s  main thread ${loopMs.toFixed(0).padStart(4)} ms  database ${dbMs.toFixed(0).padStart(4)} ms  memory +${((peak - rssBefore) / MB).toFixed(0)} MB`,
  )
  return Math.max(loopMs, dbMs)
}

export async function run() {
  const t = await createTestApp({}, {}, { pgliteThread: true })
  try {
    // The route's modules and the worker load before anything is measured.
    await measure(t, 'warm-up', 'conversations.json', jsonBytes([chatgpt(0)]))
    let worst = 0
    for (const [name, fileName, bytes] of files())
      worst = Math.max(worst, await measure(t, name, fileName, bytes))
    console.info(
      `  largest import stall: ${worst.toFixed(0)} ms (goal: under ${GOAL_MS} ms) ${worst < GOAL_MS ? 'met' : 'NOT met'}`,
    )
  } finally {
    await t.close()
  }
}
