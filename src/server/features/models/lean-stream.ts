// The lean token path (decision 056): the provider's own stream (`doStream`), below `streamText`,
// whose chain of TransformStreams per chunk (steps, tools, callbacks, stitching) a reply without
// tools does not need. The prompt is converted exactly as streamText converts it (the SDK's own
// `standardizePrompt` and `convertToLanguageModelPrompt`; a conversation of plain text, the common
// case, is written in the same shape directly); its limits, a total time and a time between
// chunks, are applied here. For the hosted providers the chunks themselves are read here too, from
// the provider's wire format (wire/): the SDK builds the request and reports HTTP errors as ever.
// Only stream-reply.ts calls it.
import type { LanguageModelV3, LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { APICallError, JSONParseError, type LanguageModel, type ModelMessage } from 'ai'
import { asLanguageModelUsage, convertToLanguageModelPrompt, standardizePrompt } from 'ai/internal'
import { chunkReader, type WireBatch, type WireUsage } from './wire/chunks.ts'
import { SseEvents } from './wire/sse-events.ts'
import { captureWire, type WireCapture } from './wire/wire-fetch.ts'

export type LeanPart =
  | { type: 'text-delta'; text: string }
  | { type: 'finish'; usage: WireUsage }
  | { type: 'error'; error: unknown }

export function leanModel(model: LanguageModel): LanguageModelV3 | null {
  return typeof model === 'object' && model.specificationVersion === 'v3' ? (model as LanguageModelV3) : null
}

type Input = { system?: string; messages: ModelMessage[] }

/**
 * The prompt as the SDK's conversion writes it, when every message is plain text: its
 * validation (zod, for messages this server built itself) and its download step (for files, none
 * here) are a millisecond before the first token. Null for anything else.
 */
export function textOnlyPrompt(input: Input): LanguageModelV3Prompt | null {
  const prompt: LanguageModelV3Prompt = []
  if (input.system !== undefined) prompt.push({ role: 'system', content: input.system })
  for (const message of input.messages) {
    if (typeof message.content !== 'string' || message.providerOptions !== undefined) return null
    if (message.role === 'system') prompt.push({ role: 'system', content: message.content })
    else if (message.role === 'user' || message.role === 'assistant')
      prompt.push({ role: message.role, content: [{ type: 'text', text: message.content }] })
    else return null
  }
  return prompt
}

/** Where the reply's text goes: handed over as read, or yielded as parts when not given. */
type OnText = ((text: string) => void) | undefined

/**
 * Streams the reply's parts. Throws (an AbortError or TimeoutError) when `signal` aborts, the
 * whole call takes longer than `totalMs`, or no part comes for `chunkMs`. With `onText` the text
 * is handed to it in the read loop itself and only the end (finish, errors) is yielded: the hot
 * loop then makes no promise per network read (two async generators, a for-await).
 */
export async function* leanStream(
  model: LanguageModelV3,
  input: Input,
  opts: {
    signal: AbortSignal
    totalMs: number
    chunkMs: number
    onText?: OnText
  },
): AsyncGenerator<LeanPart> {
  const chunkTimer = new AbortController()
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(opts.totalMs), chunkTimer.signal])
  // The time between chunks: each chunk only notes when it came (no timer reset per chunk); the
  // timer, when it fires, looks at how long it has been and waits again for the rest.
  let lastChunk = performance.now()
  const touch = () => {
    lastChunk = performance.now()
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  const check = () => {
    const quiet = performance.now() - lastChunk
    if (quiet >= opts.chunkMs)
      chunkTimer.abort(new DOMException('No part of the reply came in time', 'TimeoutError'))
    else timer = setTimeout(check, opts.chunkMs - quiet)
  }
  timer = setTimeout(check, opts.chunkMs)
  try {
    const prompt =
      textOnlyPrompt(input) ??
      (await convertToLanguageModelPrompt({
        prompt: await standardizePrompt({ system: input.system, messages: input.messages }),
        supportedUrls: await model.supportedUrls,
        download: undefined,
        abortSignal: signal,
      }))
    const capture: WireCapture = {}
    const result = await captureWire(capture, signal, () => model.doStream({ prompt, abortSignal: signal }))
    if (!result) {
      // The provider's wire format, read here (wire/): the SDK made no stream of its own.
      yield* readWire(capture, signal, touch, opts.onText)
      return
    }
    const reader = result.stream.getReader()
    const release = cancelOnAbort((reason) => void reader.cancel(reason).catch(() => undefined), signal)
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) {
          if (signal.aborted) throw signal.reason
          return
        }
        touch()
        const part = value as LanguageModelV3StreamPart
        if (part.type === 'text-delta') {
          if (!part.delta) continue
          if (opts.onText) opts.onText(part.delta)
          else yield { type: 'text-delta', text: part.delta }
        } else if (part.type === 'finish') {
          const usage = asLanguageModelUsage(part.usage)
          yield {
            type: 'finish',
            usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
          }
        } else if (part.type === 'error') yield { type: 'error', error: part.error }
      }
    } finally {
      release()
      reader.cancel().catch(() => undefined)
    }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * A stop or a timeout cancels the read in progress, so a provider that ignores the signal still
 * stops (the loop then throws the signal's reason). One listener per stream, not a race per chunk
 * (a Promise.race against a long-lived promise keeps a reaction per chunk until the stream ends).
 */
function cancelOnAbort(stop: (reason: unknown) => void, signal: AbortSignal): () => void {
  const cancel = () => stop(signal.reason)
  if (signal.aborted) cancel()
  else signal.addEventListener('abort', cancel, { once: true })
  return () => signal.removeEventListener('abort', cancel)
}

/** Counted by token-path.test.ts: JSON.parse once per event, nothing else per chunk. */
export const wireStats = { events: 0, reads: 0 }

/**
 * The hot loop over a captured response: bytes to text (one decoder), text to events (one scan),
 * each event's JSON parsed once and plucked by the provider's reader; all the text of one network
 * read goes out as one part. A Gemini reply continued in another request is read on.
 */
async function* readWire(
  capture: WireCapture,
  signal: AbortSignal,
  touch: () => void,
  onText: OnText,
): AsyncGenerator<LeanPart> {
  const url = capture.url ?? ''
  const wire = chunkReader(capture.format ?? 'openai-chat', url)
  const batch: WireBatch = { text: '', errors: [] }
  const onData = (data: string) => {
    wireStats.events++
    if (data === '[DONE]') return
    let value: unknown
    try {
      value = JSON.parse(data)
    } catch (cause) {
      // As the SDK did: an error part, and the stream goes on.
      batch.errors.push(new JSONParseError({ text: data, cause }))
      return
    }
    wire.read(value, batch)
  }
  function* drain(): Generator<LeanPart> {
    if (batch.text) {
      const text = batch.text
      batch.text = ''
      if (onText) onText(text)
      else yield { type: 'text-delta', text }
    }
    if (batch.errors.length > 0) for (const error of batch.errors.splice(0)) yield { type: 'error', error }
  }
  let body = capture.body
  while (body) {
    const reader = body
    const release = cancelOnAbort(reader.cancel, signal)
    const events = new SseEvents()
    const decoder = new TextDecoder()
    const take = (value: Uint8Array) => {
      touch()
      wireStats.reads++
      events.feed(decoder.decode(value, { stream: true }), onData)
    }
    try {
      if (onText) {
        // Each chunk handed over as it arrives; errors (kept in the batch) are yielded at the
        // end of the body, which the generation reads the same way (the last error decides).
        await reader.read((value) => {
          take(value)
          if (batch.text) {
            const text = batch.text
            batch.text = ''
            onText(text)
          }
        })
        if (signal.aborted) throw signal.reason
      } else
        for (;;) {
          const { value, done } = await reader.next()
          if (done) {
            if (signal.aborted) throw signal.reason
            break
          }
          take(value)
          // drain() inline: no generator object per read.
          if (batch.text) {
            const text = batch.text
            batch.text = ''
            yield { type: 'text-delta', text }
          }
          if (batch.errors.length > 0) yield* drain()
        }
      events.feed(decoder.decode(), onData)
    } catch (error) {
      // A stop or a timeout fails the read in progress: report the signal's reason.
      throw signal.aborted ? signal.reason : error
    } finally {
      release()
      reader.cancel()
    }
    body = undefined
    const token = wire.takeContinuation?.()
    if (token && capture.repost) {
      const res = await capture.repost({ continuationToken: token })
      if (res.body) body = res.body
      else
        batch.errors.push(
          new APICallError({
            message: res.statusText || 'The continued reply failed',
            url,
            requestBodyValues: undefined,
            statusCode: res.status,
            responseBody: await res.text().catch(() => undefined),
          }),
        )
    }
  }
  wire.end(batch)
  yield* drain()
  yield { type: 'finish', usage: wire.usage() }
}
