// Head starts (decision 027): the model is asked before the send is stored, its text kept until
// the send is taken, its request aborted when the send is refused, and only when a refusal costs
// little (not for the eco engine, not past the replies a person may have at once, not again within
// a minute of a thrown-away one). The whole send over HTTP is in head-start-send.test.ts.
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { describe, expect, it } from 'vitest'
import { MAX_GENERATING_PER_USER } from './admission.ts'
import type { GenerationJob, GenerationRegistry, ModelJob } from './generation.ts'
import { HeadStarts, WASTE_WINDOW_MS } from './head-start.ts'
import type { ResolvedModel } from './providers/registry.ts'

/** A provider model whose stream the test feeds; it records each request's abort signal. */
function fedModel() {
  const requests: { signal: AbortSignal | undefined; feed: (p: LanguageModelV3StreamPart) => void }[] = []
  const model: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: 'fake',
    modelId: 'fake-1',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('not used')),
    doStream: async (options) => {
      let feed: (p: LanguageModelV3StreamPart) => void = () => {}
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          feed = (p) => controller.enqueue(p)
          options.abortSignal?.addEventListener('abort', () => controller.error(options.abortSignal?.reason))
        },
      })
      requests.push({ signal: options.abortSignal, feed })
      return { stream }
    },
  }
  return { model, requests }
}

const prompt = { system: 'Be brief.', messages: [{ role: 'user' as const, content: 'Hello' }] }

function jobFor(model: LanguageModelV3, local = false): ModelJob {
  const resolved = {
    chatModel: 'gemini',
    provider: 'google',
    modelId: 'fake-1',
    model,
    historyBudgetTokens: 8_000,
    impact: {},
    ...(local ? { local: {} } : {}),
  } as unknown as ResolvedModel
  return { resolved, prompt }
}

/** The registry as head starts see it: replies generating per user, and where a taken one goes. */
function registry(generating: Record<string, number> = {}) {
  const started: GenerationJob[] = []
  const generations = {
    generatingFor: (userId: string) => generating[userId] ?? 0,
    start: (_deps: unknown, job: GenerationJob, from: { gen: unknown }) => {
      started.push(job)
      generating[job.userId] = (generating[job.userId] ?? 0) + 1
      return from.gen
    },
  } as unknown as GenerationRegistry
  return { generations, started, generating }
}

const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setImmediate(r))
}

describe('head starts', () => {
  it('asks the model at once and keeps its text until the send is taken', async () => {
    const { model, requests } = fedModel()
    const { generations, started } = registry()
    const head = new HeadStarts(generations).begin('u1', jobFor(model))
    expect(head).not.toBeNull()
    await until(() => requests.length === 1)
    requests[0]?.feed({ type: 'text-delta', id: 't', delta: 'Early ' })
    await until(() => head?.gen.text === 'Early ')
    const job = {
      messageId: 'm1',
      userId: 'u1',
      threadId: 't1',
      resolved: jobFor(model).resolved,
      inputChars: 5,
    }
    expect(head?.take({} as never, job)).toBe(head?.gen)
    expect(started).toEqual([job])
    // Taken: a discard after it (the send's finally) leaves the request alone.
    head?.discard()
    expect(requests[0]?.signal?.aborted).toBe(false)
  })

  it('aborts the request of a send that was not stored', async () => {
    const { model, requests } = fedModel()
    const head = new HeadStarts(registry().generations).begin('u1', jobFor(model))
    await until(() => requests.length === 1)
    head?.discard()
    expect(requests[0]?.signal?.aborted).toBe(true)
    expect((await head?.streaming)?.ending).toEqual({ kind: 'stopped' })
  })

  it('gives none to a person whose head start was thrown away in the last minute', async () => {
    const { model } = fedModel()
    let now = 1_000_000
    const starts = new HeadStarts(registry().generations, () => now)
    starts.begin('u1', jobFor(model))?.discard()
    expect(starts.begin('u1', jobFor(model))).toBeNull()
    // Someone else is not held back by it.
    const other = starts.begin('u2', jobFor(model))
    expect(other).not.toBeNull()
    other?.take({} as never, { userId: 'u2' } as GenerationJob)
    now += WASTE_WINDOW_MS - 1
    expect(starts.begin('u1', jobFor(model))).toBeNull()
    now += 1
    const again = starts.begin('u1', jobFor(model))
    expect(again).not.toBeNull()
    again?.discard()
  })

  it(`gives none past ${MAX_GENERATING_PER_USER} replies at once, counting those not yet stored`, () => {
    const { model } = fedModel()
    const { generations, generating } = registry({ u1: 1, u2: MAX_GENERATING_PER_USER })
    const starts = new HeadStarts(generations)
    const open = Array.from({ length: MAX_GENERATING_PER_USER - 1 }, () => starts.begin('u1', jobFor(model)))
    expect(open.every((h) => h !== null)).toBe(true)
    expect(starts.begin('u1', jobFor(model))).toBeNull()
    expect(starts.begin('u2', jobFor(model))).toBeNull()
    // Taken, it is counted as generating instead (the registry counts it), not twice: once the
    // reply that was generating before ends, there is room again.
    open[0]?.take({} as never, { userId: 'u1' } as GenerationJob)
    expect(starts.begin('u1', jobFor(model))).toBeNull()
    generating.u1 = (generating.u1 ?? 0) - 1
    expect(starts.begin('u1', jobFor(model))).not.toBeNull()
  })

  it('gives none to the eco engine running in this process', () => {
    const { model, requests } = fedModel()
    expect(new HeadStarts(registry().generations).begin('u1', jobFor(model, true))).toBeNull()
    expect(requests).toEqual([])
  })
})
