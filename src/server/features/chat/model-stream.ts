// The lean token path (issue 15, decision 016): the provider's own stream (`doStream`), below
// `streamText`, whose chain of TransformStreams per chunk (steps, tools, callbacks, stitching)
// a plain text reply does not need. The prompt is converted exactly as streamText converts it
// (the SDK's own `standardizePrompt` and `convertToLanguageModelPrompt`); the limits it applied,
// a total time and a time between chunks, are applied here. Models that are not provider objects
// of the current specification go through streamText (generation.ts).
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import type { LanguageModel, ModelMessage } from 'ai'
import { asLanguageModelUsage, convertToLanguageModelPrompt, standardizePrompt } from 'ai/internal'

export type LeanPart =
  | { type: 'text-delta'; text: string }
  | { type: 'finish'; usage: { inputTokens?: number; outputTokens?: number } }
  | { type: 'error'; error: unknown }

export function leanModel(model: LanguageModel): LanguageModelV3 | null {
  return typeof model === 'object' && model.specificationVersion === 'v3' ? (model as LanguageModelV3) : null
}

/**
 * Streams the reply's parts. Throws (an AbortError or TimeoutError) when `signal` aborts, the
 * whole call takes longer than `totalMs`, or no part comes for `chunkMs`.
 */
export async function* leanStream(
  model: LanguageModelV3,
  input: { system?: string; messages: ModelMessage[] },
  opts: { signal: AbortSignal; totalMs: number; chunkMs: number },
): AsyncGenerator<LeanPart> {
  const chunkTimer = new AbortController()
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(opts.totalMs), chunkTimer.signal])
  let timer: ReturnType<typeof setTimeout> | undefined
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(
      () => chunkTimer.abort(new DOMException('No part of the reply came in time', 'TimeoutError')),
      opts.chunkMs,
    )
  }
  arm()
  try {
    const prompt = await convertToLanguageModelPrompt({
      prompt: await standardizePrompt({ system: input.system, messages: input.messages }),
      supportedUrls: await model.supportedUrls,
      download: undefined,
      abortSignal: signal,
    })
    const { stream } = await model.doStream({ prompt, abortSignal: signal })
    const reader = stream.getReader()
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(signal.reason)
      if (signal.aborted) fail()
      else signal.addEventListener('abort', fail, { once: true })
    })
    aborted.catch(() => undefined)
    try {
      for (;;) {
        // A provider that ignores the signal still stops here.
        const { value, done } = await Promise.race([reader.read(), aborted])
        if (done) return
        arm()
        const part = value as LanguageModelV3StreamPart
        if (part.type === 'text-delta') {
          if (part.delta) yield { type: 'text-delta', text: part.delta }
        } else if (part.type === 'finish') {
          const usage = asLanguageModelUsage(part.usage)
          yield {
            type: 'finish',
            usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
          }
        } else if (part.type === 'error') yield { type: 'error', error: part.error }
      }
    } finally {
      reader.cancel().catch(() => undefined)
    }
  } finally {
    clearTimeout(timer)
  }
}
