// What the hot loop takes from each provider's stream chunks (decision 056): the reply's text, the
// token counts and errors, plucked from the parsed JSON with plain type checks instead of a zod
// schema per chunk. Each reader mirrors what the AI SDK's own `doStream` makes of the same chunks
// (@ai-sdk/google, @ai-sdk/openai chat, @ai-sdk/openai-compatible), for the parts a text reply
// uses: thoughts and reasoning are never text, a blocked prompt shows nothing, a vendor error in
// the stream is an error part with the status the SDK would give it.
import { APICallError, InvalidResponseDataError } from 'ai'
import { reportedEnergy } from '#server/features/eco-engine/reported-energy.ts'
import type { MeasuredEnergy } from '#server/features/impact/message-impact.ts'

/** What one network read produced. */
export interface WireBatch {
  text: string
  errors: unknown[]
}

export interface WireUsage {
  inputTokens?: number
  outputTokens?: number
  /** The energy an eco service metered for the reply (eco-engine/reported-energy.ts). */
  energy?: MeasuredEnergy | null
}

export interface ChunkReader {
  /** One SSE event, parsed. */
  read(value: unknown, out: WireBatch): void
  /** The response ended (not cut off). */
  end(out: WireBatch): void
  usage(): WireUsage
  /** Gemini: the reply goes on in another request with this token (finishReason CONTINUATION). */
  takeContinuation?(): string | undefined
}

export type WireFormat = 'gemini' | 'openai-chat' | 'openai-compatible'

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)

export function chunkReader(format: WireFormat, url: string): ChunkReader {
  return format === 'gemini' ? geminiReader(url) : openaiReader(format, url)
}

// ---- Gemini streamGenerateContent?alt=sse ----

const confirmedBlock = (reason: unknown) =>
  reason != null &&
  reason !== '' &&
  reason !== 'BLOCK_REASON_UNSPECIFIED' &&
  reason !== 'BLOCKED_REASON_UNSPECIFIED'

/** Google's error status names to HTTP statuses, as the SDK maps them. */
const googleStatus: Record<string, number> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
  UNKNOWN: 500,
  INTERNAL: 500,
  DATA_LOSS: 500,
}

interface GeminiCounts {
  prompt?: number
  candidates?: number
  thoughts?: number
}

function geminiReader(url: string): ChunkReader {
  // The usage of the current request, and the sum of those before a continuation.
  let usage: GeminiCounts | undefined
  let carried: GeminiCounts | undefined
  let blocked = false
  let continuation: string | undefined
  const add = (a: number | undefined, b: number | undefined) =>
    a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0)
  const total = (): GeminiCounts | undefined =>
    !carried || !usage
      ? (usage ?? carried)
      : {
          prompt: add(carried.prompt, usage.prompt),
          candidates: add(carried.candidates, usage.candidates),
          thoughts: add(carried.thoughts, usage.thoughts),
        }
  return {
    read(value, out) {
      if (!isObj(value)) return
      const error = value.error
      if (isObj(error)) {
        const status = typeof error.status === 'string' ? error.status : undefined
        out.errors.push(
          new APICallError({
            message: typeof error.message === 'string' ? error.message : 'The model stream failed',
            url,
            requestBodyValues: undefined,
            statusCode: num(error.code) ?? (status ? googleStatus[status] : undefined),
            responseBody: JSON.stringify({ error }),
            data: error,
          }),
        )
        return
      }
      const meta = value.usageMetadata
      if (isObj(meta))
        usage = {
          prompt: num(meta.promptTokenCount),
          candidates: num(meta.candidatesTokenCount),
          thoughts: num(meta.thoughtsTokenCount),
        }
      const feedback = value.promptFeedback
      if (!blocked && isObj(feedback) && confirmedBlock(feedback.blockReason)) blocked = true
      const candidates = value.candidates
      const candidate = Array.isArray(candidates) ? (candidates[0] as unknown) : undefined
      if (blocked || !isObj(candidate)) return
      const content = candidate.content
      const parts = isObj(content) && Array.isArray(content.parts) ? content.parts : undefined
      if (parts)
        for (const part of parts) {
          // Text only: a thought (Gemini 2.5 thinking) is reasoning, never shown.
          if (isObj(part) && typeof part.text === 'string' && part.text.length > 0 && part.thought !== true)
            out.text += part.text
        }
      if (candidate.finishReason === 'CONTINUATION') {
        if (typeof candidate.continuationToken === 'string') continuation = candidate.continuationToken
        carried = total()
        usage = undefined
      }
    },
    end() {},
    usage() {
      const u = total()
      if (!u) return {}
      return { inputTokens: u.prompt ?? 0, outputTokens: (u.candidates ?? 0) + (u.thoughts ?? 0) }
    },
    takeContinuation() {
      const token = continuation
      continuation = undefined
      return token
    },
  }
}

// ---- OpenAI chat completions (stream: true), and OpenAI-compatible servers ----

/** The HTTP status an OpenAI error frame stands for, as @ai-sdk/openai reads it. */
export function openaiErrorStatus(error: Obj): number {
  const code = error.code
  if (typeof code === 'number' && Number.isInteger(code) && code >= 400 && code <= 599) return code
  if (typeof code === 'string' && /^\d{3}$/.test(code)) {
    const n = Number(code)
    if (n >= 400 && n <= 599) return n
  }
  const words = [code, error.type]
    .filter((v) => typeof v === 'string' || typeof v === 'number')
    .join(' ')
    .toLowerCase()
  if (words.includes('insufficient_quota') || words.includes('rate_limit')) return 429
  if (words.includes('authentication')) return 401
  if (words.includes('permission')) return 403
  if (words.includes('not_found')) return 404
  if (['invalid', 'bad_request', 'context_length'].some((w) => words.includes(w))) return 400
  if (words.includes('overload')) return 503
  if (words.includes('timeout')) return 504
  return 500
}

function openaiReader(format: 'openai-chat' | 'openai-compatible', url: string): ChunkReader {
  const compatible = format === 'openai-compatible'
  let usage: Obj | undefined
  let output = false
  let finished = false
  return {
    read(value, out) {
      if (!isObj(value)) return
      if ('error' in value) {
        const frame = value.error
        // OpenAI proper: an error before any output fails the call itself, with its status.
        if (!compatible && !output) {
          const known = isObj(frame) && typeof frame.message === 'string'
          out.errors.push(
            new APICallError({
              message: known
                ? (frame.message as string)
                : 'OpenAI stream failed before any output was generated',
              url,
              requestBodyValues: undefined,
              statusCode: known ? openaiErrorStatus(frame) : 500,
              responseBody: JSON.stringify(value),
              data: value,
            }),
          )
        } else out.errors.push(frame)
        return
      }
      if (isObj(value.usage)) usage = value.usage
      const choices = value.choices
      const choice = Array.isArray(choices) ? (choices[0] as unknown) : undefined
      if (!isObj(choice)) return
      if (choice.finish_reason != null) finished = true
      const delta = choice.delta
      if (!isObj(delta)) return
      // reasoning_content / reasoning (compatible servers) is reasoning, never text.
      const content = delta.content
      if (typeof content === 'string') {
        if (content.length > 0) {
          out.text += content
          output = true
        }
      } else if (compatible && Array.isArray(content)) {
        for (const part of content)
          if (isObj(part) && part.type === 'text' && typeof part.text === 'string' && part.text) {
            out.text += part.text
            output = true
          }
      }
      // A refusal is shown as the reply (OpenAI).
      if (!compatible && typeof delta.refusal === 'string' && delta.refusal.length > 0) {
        out.text += delta.refusal
        output = true
      }
      if (Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0) output = true
    },
    end(out) {
      if (compatible && !finished)
        out.errors.push(
          new InvalidResponseDataError({
            data: undefined,
            message: 'Response stream ended without a finish reason.',
          }),
        )
    },
    usage() {
      if (!usage) return {}
      const energy = compatible ? reportedEnergy(usage.loris_energy) : null
      return {
        inputTokens: num(usage.prompt_tokens) ?? 0,
        outputTokens: num(usage.completion_tokens) ?? 0,
        ...(energy ? { energy } : {}),
      }
    },
  }
}
