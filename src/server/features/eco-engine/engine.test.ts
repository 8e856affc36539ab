// @runs-alone: measures time on the main thread, so runs after the other files, one at a time.
// The real engine (node-llama-cpp, CPU) on the 260K-parameter test model.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { EcoEngine, EcoUnavailableError } from './engine.ts'
import type { EcoEngineSettings } from './settings.ts'

const TEST_MODEL = path.resolve(import.meta.dirname, '../../../../tests/fixtures/models/stories260K.gguf')

function testSettings(over: Partial<EcoEngineSettings> = {}): EcoEngineSettings {
  return {
    modelFile: TEST_MODEL,
    modelUrl: null,
    sha256: null,
    expectedBytes: null,
    threads: 1,
    parallel: 1,
    cpuTdpW: 85,
    paramsB: 0.00026,
    ...over,
  }
}

const log = pino({ level: 'silent' })
let engine: EcoEngine
beforeAll(async () => {
  engine = new EcoEngine(testSettings(), log, { raplRoot: '/nonexistent' })
})
afterAll(() => engine.close())

const ask = (text: string, extra: Partial<Parameters<EcoEngine['generate']>[0]> = {}) => {
  const chunks: string[] = []
  return {
    chunks,
    done: engine.generate({
      system: 'You are Loris.',
      turns: [{ role: 'user', text }],
      maxTokens: 40,
      onText: (t) => chunks.push(t),
      ...extra,
    }),
  }
}

describe('EcoEngine', () => {
  it('loads the model file on first use and reports each state', async () => {
    const states: string[] = []
    const off = engine.onStatus(() => states.push(engine.status().state))
    expect(engine.status().state).toBe('idle')
    await engine.ready()
    off()
    expect(states).toEqual(['loading', 'ready'])
    expect(engine.status()).toEqual({
      state: 'ready',
      bytes: null,
      totalBytes: null,
      percent: null,
      failure: null,
    })
  })

  it('streams a reply in chunks, counting tokens and the energy it used', async () => {
    const { chunks, done } = ask('Once upon a time')
    const result = await done
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.join('').length).toBeGreaterThan(0)
    expect(result.outputTokens).toBeGreaterThan(1)
    expect(result.outputTokens).toBeLessThanOrEqual(40)
    expect(result.inputTokens).toBeGreaterThan(0)
    // No RAPL here: CPU seconds x 85 W / logical CPUs.
    expect(result.energy.method).toBe('estimated')
    expect(result.energy.joules).toBeGreaterThan(0)
    expect(result.aborted).toBe(false)
  })

  it('stops when the signal is aborted, keeping what was generated', async () => {
    const controller = new AbortController()
    const chunks: string[] = []
    const result = await engine.generate({
      system: 'You are Loris.',
      turns: [{ role: 'user', text: 'Tell me a long story' }],
      maxTokens: 2_000,
      signal: controller.signal,
      onText: (t) => {
        chunks.push(t)
        if (chunks.length === 3) controller.abort()
      },
    })
    expect(result.aborted).toBe(true)
    expect(chunks.length).toBeGreaterThanOrEqual(3)
    expect(result.outputTokens).toBeLessThan(100)
  })

  it('queues replies beyond its parallel sequences and tells them their place', async () => {
    const positions: number[][] = [[], [], []]
    const runs = [0, 1, 2].map((i) => ask(`Story ${i}`, { onQueued: (p) => positions[i]?.push(p) }))
    await Promise.all(runs.map((r) => r.done))
    expect(positions).toEqual([[0], [1, 0], [2, 1, 0]])
    expect(engine.queued).toBe(0)
  })

  it('a queued reply whose Stop comes first leaves the queue', async () => {
    const first = ask('First')
    const controller = new AbortController()
    const seen: number[] = []
    const second = ask('Second', {
      signal: controller.signal,
      onQueued: (p) => {
        seen.push(p)
        // Stop pressed while it waits in line.
        if (p === 1) controller.abort()
      },
    })
    await expect(second.done).rejects.toBeDefined()
    expect(seen).toEqual([1])
    expect(engine.queued).toBe(0)
    await first.done
    // The queue still works afterwards.
    expect((await ask('Third').done).outputTokens).toBeGreaterThan(0)
  })

  it('refuses a message too long for its context instead of cutting it', async () => {
    const err = await ask('word '.repeat(4_000)).done.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(EcoUnavailableError)
    expect(err).toMatchObject({ failure: 'too_long' })
    // Nothing waits in line or holds a sequence after a refusal: the next reply runs.
    expect(engine.queued).toBe(0)
    expect((await ask('Once upon a time').done).outputTokens).toBeGreaterThan(0)
  })

  it('drops the oldest turns that do not fit, and counts the prompt it really read', async () => {
    const turn = 'word '.repeat(80) // about 240 tokens in this model's 512-token vocabulary
    const turns = Array.from({ length: 8 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      text: turn,
    }))
    const result = await engine.generate({
      system: 'You are Loris.',
      turns: [...turns, { role: 'user', text: `${turn} Once upon a time` }],
      maxTokens: 40,
      onText: () => {},
    })
    const contextSize = 2_048 // the test model's trained context, below the engine's 4,096
    expect(result.inputTokens + result.outputTokens).toBeLessThanOrEqual(contextSize)
    // Most of the history was kept (only whole turns dropped), the new turn whole.
    expect(result.inputTokens).toBeGreaterThan(contextSize - 40 - 2 * 260)
  })

  it('never blocks the event loop while generating (inference runs on native threads)', async () => {
    const histogram = monitorEventLoopDelay({ resolution: 5 })
    histogram.enable()
    const result = await engine.generate({
      system: 'You are Loris.',
      turns: [{ role: 'user', text: 'Once upon a time there was a loris' }],
      maxTokens: 400,
      onText: () => {},
    })
    histogram.disable()
    expect(result.outputTokens).toBeGreaterThan(50)
    const p99Ms = histogram.percentile(99) / 1e6
    // A blocked loop shows as delays of the whole generation; a busy 2-core machine adds noise.
    expect(p99Ms).toBeLessThan(100)
  })
})

describe('EcoEngine: trying a failed download again', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'loris-eco-retry-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('keeps reporting the failure until the host answers, then the download', async () => {
    let answer: (r: Response) => void = () => {}
    let attempt = 0
    const fetchImpl = (async () => {
      attempt++
      if (attempt === 1) throw new TypeError('getaddrinfo EAI_AGAIN huggingface.co')
      return new Promise<Response>((resolve) => {
        answer = resolve
      })
    }) as typeof fetch
    const retrying = new EcoEngine(
      testSettings({
        modelFile: path.join(dir, 'eco.gguf'),
        modelUrl: 'https://huggingface.co/loris/eco/resolve/r1/eco.gguf',
        sha256: '0'.repeat(64),
      }),
      log,
      { raplRoot: '/nonexistent', fetchImpl, retryAfterMs: 0 },
    )
    await expect(retrying.prepare()).rejects.toMatchObject({ failure: 'offline' })
    expect(retrying.status()).toMatchObject({ state: 'failed', failure: 'offline' })

    const states: string[] = []
    const off = retrying.onStatus(() => states.push(retrying.status().state))
    const again = retrying.prepare()
    again.catch(() => {})
    await vi.waitFor(() => expect(attempt).toBe(2))
    // Asked again, not answered yet: still the last failure, not "downloading".
    expect(retrying.status()).toMatchObject({ state: 'failed', failure: 'offline' })
    expect(states).toEqual([])

    answer(new Response('not the model', { status: 200, headers: { 'content-length': '13' } }))
    await expect(again).rejects.toMatchObject({ failure: 'checksum' })
    off()
    expect(states[0]).toBe('downloading')
    expect(states.at(-1)).toBe('failed')
    expect(retrying.status()).toMatchObject({ state: 'failed', failure: 'checksum' })
    await retrying.close()
  })
})
