// The in-process eco engine on the test model (tests/fixtures/models/stories260K.gguf): time to
// first token, tokens per second at 1 and 4 concurrent replies, event-loop delay p99 while
// generating, and joules per token, each next to its goal. Loopback only, nothing downloaded.
// The test model is 260K parameters: these figures check the engine's plumbing (threads, queue,
// batching, metering), not the speed of the default 0.5B model (docs/decisions/020).
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import pino from 'pino'
import { EcoEngine } from '#server/features/eco-engine/engine.ts'
import { defaultThreads } from '#server/features/eco-engine/settings.ts'
import { estimateImpact } from '#server/features/impact/estimator.ts'

const MODEL = path.resolve(import.meta.dirname, '../tests/fixtures/models/stories260K.gguf')
const RUNS = 5
const MAX_TOKENS = 200
const DEADLINE_MS = 120_000

const GOALS = {
  ttftMs: 1_000,
  tokensPerSecond1: 10,
  loopDelayP99Ms: 50,
}

function engine(parallel: number) {
  const threads = Number(process.env.ECO_THREADS) || defaultThreads()
  return new EcoEngine(
    {
      modelFile: MODEL,
      modelUrl: null,
      sha256: null,
      expectedBytes: null,
      threads,
      parallel,
      cpuTdpW: Number(process.env.ECO_CPU_TDP_W) || 85,
      paramsB: 0.00026,
    },
    pino({ level: 'silent' }),
  )
}

async function reply(e: EcoEngine, i: number) {
  const started = performance.now()
  let first: number | null = null
  const result = await e.generate({
    system: 'You are Loris, a helpful assistant.',
    turns: [{ role: 'user', text: `Once upon a time, story number ${i}` }],
    maxTokens: MAX_TOKENS,
    onText: () => {
      first ??= performance.now()
    },
  })
  return { ...result, ttftMs: (first ?? performance.now()) - started, ms: performance.now() - started }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN
const row = (name: string, value: string, goal: string, ok: boolean) =>
  console.info(`  ${name.padEnd(34)} ${value.padStart(14)}   goal ${goal.padEnd(22)} ${ok ? 'ok' : 'MISSED'}`)

export async function run() {
  const timer = setTimeout(() => {
    console.error(`eco-engine bench: gave up after ${DEADLINE_MS / 1000} s`)
    process.exit(1)
  }, DEADLINE_MS)
  timer.unref()

  const single = engine(1)
  await single.ready()
  await reply(single, 0) // warm-up
  const runs = []
  for (let i = 1; i <= RUNS; i++) runs.push(await reply(single, i))
  await single.close()

  const four = engine(4)
  await four.ready()
  await reply(four, 0)
  const loop = monitorEventLoopDelay({ resolution: 5 })
  loop.enable()
  const started = performance.now()
  const parallel = await Promise.all([1, 2, 3, 4].map((i) => reply(four, i)))
  const wallS = (performance.now() - started) / 1000
  loop.disable()
  await four.close()

  const ttft = median(runs.map((r) => r.ttftMs))
  const tps1 = median(runs.map((r) => r.outputTokens / (r.ms / 1000)))
  const tokens4 = parallel.reduce((s, r) => s + r.outputTokens, 0)
  const tps4 = tokens4 / wallS
  const p99 = loop.percentile(99) / 1e6
  const all = [...runs, ...parallel]
  const joulesPerToken =
    all.reduce((s, r) => s + r.energy.joules, 0) / all.reduce((s, r) => s + r.outputTokens, 0)
  // The goal for energy: below the standard reference (gpt-4o, EcoLogits) per token.
  const standard = estimateImpact({ provider: 'openai', model: 'gpt-4o', outputTokens: 1_000, zone: 'WOR' })
  const standardJoulesPerToken = (standard.energyWh.min / 1_000) * 3_600

  console.info(
    `  model stories260K.gguf, ${single.settings.threads} thread(s), energy ${runs[0]?.energy.method ?? '?'} (RAPL or CPU time x TDP)`,
  )
  row('time to first token (median)', `${ttft.toFixed(1)} ms`, `<= ${GOALS.ttftMs} ms`, ttft <= GOALS.ttftMs)
  row(
    'tokens/s, 1 reply (median)',
    tps1.toFixed(1),
    `>= ${GOALS.tokensPerSecond1}`,
    tps1 >= GOALS.tokensPerSecond1,
  )
  row('tokens/s, 4 concurrent (total)', tps4.toFixed(1), `>= 1 reply (${tps1.toFixed(0)})`, tps4 >= tps1)
  row(
    'event-loop delay p99, generating',
    `${p99.toFixed(1)} ms`,
    `<= ${GOALS.loopDelayP99Ms} ms`,
    p99 <= GOALS.loopDelayP99Ms,
  )
  row(
    'joules per token',
    joulesPerToken.toExponential(2),
    `< gpt-4o ${standardJoulesPerToken.toFixed(1)} J`,
    joulesPerToken < standardJoulesPerToken,
  )
  clearTimeout(timer)
}
