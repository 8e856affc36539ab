// The model call's span and its tool calls' spans, asked for where the call is made
// (features/models/stream-reply.ts). This file imports nothing: tracing.ts, which main.ts loads
// only with OTEL_EXPORTER_OTLP_ENDPOINT, registers the maker of the spans; without it a call
// asks for one and gets null (docs/decisions/061).

export interface ModelCallInfo {
  /** Who runs the model (gen_ai.provider.name). */
  provider: string
  model: string
}

export interface ModelCallEnd {
  usage?: { inputTokens?: number; outputTokens?: number }
  /** The model's reason to stop ('stop', 'length', 'tool-calls'...), when it gave one. */
  finishReason?: string
  /** Why the call failed; a failed call's span has the error status. */
  error?: unknown
  /** Stopped by its signal or a time limit. */
  aborted?: boolean
}

export interface ToolCallInfo {
  name: string
  callId: string
  description?: string
}

export interface ModelCallSpan {
  /** The first text or reasoning arrived (marked once; later calls do nothing). */
  firstToken(): void
  /**
   * Runs one tool call in a span of its own under the model call's, from its start to its end; a
   * throw, or a result marked `isError` (an MCP tool's failure), gives it the error status.
   */
  toolCall<T>(tool: ToolCallInfo, run: () => T | PromiseLike<T>): Promise<T>
  /** The model's stream ended: the span ends now (only the first call counts). */
  end(how: ModelCallEnd): void
}

type ModelCallTracer = (info: ModelCallInfo) => ModelCallSpan

let tracer: ModelCallTracer | null = null

/** Set by tracing.ts when it starts, null again at its shutdown. */
export function traceModelCalls(next: ModelCallTracer | null): void {
  tracer = next
}

/** A span for the model call starting now, or null when traces are off. */
export function modelCallSpan(info: ModelCallInfo): ModelCallSpan | null {
  return tracer ? tracer(info) : null
}
