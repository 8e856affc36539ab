// The in-process engine as an AI SDK language model, so a local reply takes the same path as a
// hosted one (chat/generation.ts: streamText, Stop, timeouts, usage, persistence).
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
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] })
          let started = false
          engine
            .generate({
              system,
              turns,
              signal: options.abortSignal,
              maxTokens: options.maxOutputTokens,
              onQueued: hooks.onQueued,
              onText: (delta) => {
                if (!started) {
                  started = true
                  controller.enqueue({ type: 'text-start', id: 'reply' })
                }
                controller.enqueue({ type: 'text-delta', id: 'reply', delta })
              },
            })
            .then((result) => {
              hooks.onMeasured?.(result.energy, result.outputTokens)
              if (started) controller.enqueue({ type: 'text-end', id: 'reply' })
              controller.enqueue({
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
              controller.close()
            })
            .catch((error: unknown) => {
              controller.enqueue({ type: 'error', error })
              controller.close()
            })
        },
      })
      return { stream }
    },
  }
}
