// The in-process engine as an AI SDK language model, so a local reply takes the same path as a
// hosted one (models/stream-reply.ts: Stop, timeouts, usage, persistence).
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider'
import type { EcoEnergy, EcoEngine, EcoTurn } from './engine.ts'

export interface EcoReplyHooks {
  /** The reply's place in the queue (1: next), and 0 when it starts generating. */
  onQueued?: (position: number) => void
  /** The energy the reply used, once it is over. */
  onMeasured?: (energy: EcoEnergy, tokens: number) => void
}

/** System text and turns from the SDK prompt; files are named, since a small model reads text only. */
export function toTurns(prompt: LanguageModelV3Prompt): { system: string; turns: EcoTurn[] } {
  const system: string[] = []
  const turns: EcoTurn[] = []
  for (const m of prompt) {
    if (m.role === 'system') system.push(m.content)
    else if (m.role === 'user' || m.role === 'assistant') {
      const text = m.content
        .map((p) => {
          if (p.type === 'text') return p.text
          if (p.type === 'file') return `[attached file${p.filename ? `: ${p.filename}` : ''}]`
          return ''
        })
        .filter(Boolean)
        .join('\n')
      turns.push({ role: m.role, text })
    }
  }
  return { system: system.join('\n\n'), turns }
}

export function ecoLanguageModel(
  engine: EcoEngine,
  modelId: string,
  hooks: EcoReplyHooks = {},
): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'loris-eco-engine',
    modelId,
    supportedUrls: {},
    async doGenerate() {
      throw new Error('The eco engine only streams')
    },
    async doStream(options: LanguageModelV3CallOptions) {
      const { system, turns } = toTurns(options.prompt)
      // The reader may cancel the stream (on Stop or a timeout): the generation then stops too,
      // and nothing more is written to the closed stream.
      const cancelled = new AbortController()
      const signal = options.abortSignal
        ? AbortSignal.any([options.abortSignal, cancelled.signal])
        : cancelled.signal
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          const enqueue = (part: LanguageModelV3StreamPart) => {
            if (!cancelled.signal.aborted) controller.enqueue(part)
          }
          const close = () => {
            if (!cancelled.signal.aborted) controller.close()
          }
          enqueue({ type: 'stream-start', warnings: [] })
          let started = false
          engine
            .generate({
              system,
              turns,
              signal,
              maxTokens: options.maxOutputTokens,
              onQueued: hooks.onQueued,
              onText: (delta) => {
                if (!started) {
                  started = true
                  enqueue({ type: 'text-start', id: 'reply' })
                }
                enqueue({ type: 'text-delta', id: 'reply', delta })
              },
            })
            .then((result) => {
              hooks.onMeasured?.(result.energy, result.outputTokens)
              if (started) enqueue({ type: 'text-end', id: 'reply' })
              enqueue({
                type: 'finish',
                finishReason: { unified: 'stop', raw: result.aborted ? 'aborted' : undefined },
                usage: {
                  inputTokens: {
                    total: result.inputTokens,
                    noCache: result.inputTokens,
                    cacheRead: undefined,
                    cacheWrite: undefined,
                  },
                  outputTokens: {
                    total: result.outputTokens,
                    text: result.outputTokens,
                    reasoning: undefined,
                  },
                },
              })
              close()
            })
            .catch((error: unknown) => {
              enqueue({ type: 'error', error })
              close()
            })
        },
        cancel() {
          cancelled.abort()
        },
      })
      return { stream }
    },
  }
}
