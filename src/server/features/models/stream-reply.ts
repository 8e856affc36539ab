// The one way Loris calls a model, whichever provider answers: its stream parts handed on as they
// come (text, reasoning, sources, files, tool calls and results, the finish with its usage). Chat,
// titles, tools and routing all call it; none knows the vendor. A call offered tools goes through
// the AI SDK's `streamText` (its steps run the tools); one without, to a provider model, takes the
// lean token path (lean-stream.ts: the provider's `doStream`, its chunks read from the wire), which
// costs a quarter of streamText's CPU per token (decision 056).
import {
  type GeneratedFile,
  type ModelMessage,
  stepCountIs,
  streamText,
  type TextStreamPart,
  type ToolSet,
  type TypedToolCall,
  type TypedToolResult,
} from 'ai'
import type { ChatWait } from '#contract/chat-events.ts'
import { ecoLanguageModel } from '#server/features/eco-engine/language-model.ts'
import { energyFromMetadata } from '#server/features/eco-engine/reported-energy.ts'
import type { MeasuredEnergy } from '#server/features/impact/message-impact.ts'
import { modelCallSpan } from '#server/lib/telemetry/spans.ts'
import { leanModel, leanStream } from './lean-stream.ts'
import type { ResolvedModel } from './registry.ts'
import { tracedTools } from './traced-tools.ts'

/** The longest a reply may take, and the longest the model may go quiet in one. */
export const MAX_REPLY_MS = 5 * 60_000
export const MAX_QUIET_MS = 90_000
/** Model calls one reply may make when it is offered tools (each tool result goes back in one). */
const MAX_TOOL_STEPS = 5

export interface ReplyPrompt {
  system: string
  messages: ModelMessage[]
}

/** A source the model cited (a web page or a document), as the SDK gives it. */
export type ReplySource = Omit<Extract<TextStreamPart<ToolSet>, { type: 'source' }>, 'type'>

export type ReplyPart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'source'; source: ReplySource }
  | { type: 'file'; file: GeneratedFile }
  | { type: 'tool-call'; call: TypedToolCall<ToolSet> }
  | { type: 'tool-result'; result: TypedToolResult<ToolSet> }
  /** A tool call that failed (threw, timed out); the model is told and goes on. */
  | { type: 'tool-error'; failure: Extract<TextStreamPart<ToolSet>, { type: 'tool-error' }> }
  /** A call to a tool marked `needsApproval`: it has not run, and the call ends after this step. */
  | { type: 'approval-request'; approvalId: string; call: TypedToolCall<ToolSet> }
  /** A call the person did not approve: the model was told so instead of the tool's result. */
  | { type: 'tool-denied'; toolCallId: string; toolName: string }
  /**
   * The model ended; `measured` is the energy our own engine metered for it, else null. After an
   * approval request, `responseMessages` are this call's messages (text, tool calls, results), for
   * the call that goes on once the person answers (models/approval.ts).
   */
  | {
      type: 'finish'
      usage: ReplyUsage
      measured: MeasuredEnergy | null
      responseMessages?: ModelMessage[]
    }
  | { type: 'error'; error: unknown }
  /** The signal or a time limit (MAX_REPLY_MS, MAX_QUIET_MS) ended the call. */
  | { type: 'abort' }

export interface ReplyUsage {
  inputTokens?: number
  outputTokens?: number
}

export interface ReplyOptions {
  signal: AbortSignal
  tools?: ToolSet
  /** Takes the reply's text as it comes instead of text parts (no promise per network read). */
  onText?: (text: string) => void
  /** Why the reply has not started (our own engine preparing or queued); null once it has. */
  onWait?: (wait: ChatWait | null) => void
}

/**
 * Streams `model`'s reply to `prompt`. A failed or stopped call ends with an error or abort part;
 * a throw is only a connection dropped under the SDK (the caller treats it as an error).
 */
export async function* streamReply(
  model: ResolvedModel,
  prompt: ReplyPrompt,
  opts: ReplyOptions,
): AsyncGenerator<ReplyPart> {
  let measured: MeasuredEnergy | null = null
  let language = model.model
  const engine = model.local
  // The call's span when traces are on (lib/telemetry/spans.ts), else null: from here to the
  // model's last part, its tool calls under it.
  const span = modelCallSpan({ provider: model.provider, model: model.modelId })
  if (engine) {
    // First use: the model may still be downloading or loading. The reply says so and waits,
    // outside the time limits; the signal still stops it.
    if (engine.status().state !== 'ready') {
      const show = () => opts.onWait?.({ kind: 'preparing', percent: engine.status().percent })
      show()
      const unsubscribe = engine.onStatus(show)
      try {
        await engine.ready(opts.signal)
      } catch (error) {
        span?.end(isAbort(error) ? { aborted: true } : { error })
        throw error
      } finally {
        unsubscribe()
      }
    }
    language = ecoLanguageModel(engine, model.modelId, {
      onQueued: (position) => opts.onWait?.(position > 0 ? { kind: 'queued', position } : null),
      onMeasured: (energy) => {
        measured = energy
      },
    })
  }
  const onText =
    span && opts.onText
      ? (text: string) => {
          span.firstToken()
          opts.onText?.(text)
        }
      : opts.onText
  const lean = opts.tools ? null : leanModel(language)
  try {
    if (lean) {
      const parts = leanStream(
        lean,
        { system: prompt.system, messages: prompt.messages },
        { signal: opts.signal, totalMs: MAX_REPLY_MS, chunkMs: MAX_QUIET_MS, onText },
      )
      for await (const part of parts) {
        if (part.type === 'text-delta') {
          span?.firstToken()
          yield { type: 'text', text: part.text }
        }
        // An eco service (npm run eco:serve) reports the energy it metered in the usage.
        else if (part.type === 'finish') {
          span?.end({ usage: part.usage })
          yield { type: 'finish', usage: part.usage, measured: measured ?? part.usage.energy ?? null }
        } else {
          span?.end({ error: part.error })
          yield part
        }
      }
      return
    }
    const result = streamText({
      model: language,
      system: prompt.system,
      messages: prompt.messages,
      tools: span && opts.tools ? tracedTools(opts.tools, span) : opts.tools,
      stopWhen: stepCountIs(opts.tools ? MAX_TOOL_STEPS : 1),
      // The client retries a failed send itself (spec 4, 3 attempts); SDK retries would multiply them.
      maxRetries: 0,
      abortSignal: opts.signal,
      timeout: { totalMs: MAX_REPLY_MS, chunkMs: MAX_QUIET_MS },
      // Errors come as parts of the stream below.
      onError: () => {},
    })
    let awaitsApproval = false
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          if (!part.text) break
          span?.firstToken()
          if (onText) onText(part.text)
          else yield { type: 'text', text: part.text }
          break
        case 'reasoning-delta':
          if (!part.text) break
          span?.firstToken()
          yield { type: 'reasoning', text: part.text }
          break
        case 'source':
          yield { type: 'source', source: part }
          break
        case 'file':
          yield { type: 'file', file: part.file }
          break
        case 'tool-call':
          yield { type: 'tool-call', call: part }
          break
        case 'tool-result':
          yield { type: 'tool-result', result: part }
          break
        case 'tool-error':
          yield { type: 'tool-error', failure: part }
          break
        case 'tool-approval-request':
          awaitsApproval = true
          yield { type: 'approval-request', approvalId: part.approvalId, call: part.toolCall }
          break
        case 'tool-output-denied':
          yield { type: 'tool-denied', toolCallId: part.toolCallId, toolName: part.toolName }
          break
        case 'finish-step':
          measured ??= energyFromMetadata(part.providerMetadata)
          break
        case 'finish':
          span?.end({ usage: part.totalUsage, finishReason: part.finishReason })
          yield {
            type: 'finish',
            usage: part.totalUsage,
            measured,
            ...(awaitsApproval ? { responseMessages: (await result.response).messages } : {}),
          }
          break
        case 'error':
          span?.end({ error: part.error })
          yield { type: 'error', error: part.error }
          break
        case 'abort':
          span?.end({ aborted: true })
          yield { type: 'abort' }
          break
      }
    }
  } catch (error) {
    // The lean path ends a stop or a time limit with a throw (an AbortError or a TimeoutError).
    if (!isAbort(error)) {
      span?.end({ error })
      throw error
    }
    span?.end({ aborted: true })
    yield { type: 'abort' }
  } finally {
    // A caller that stopped reading ends it here (the first end counts).
    span?.end({})
    opts.onWait?.(null)
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')
}
