// Each tool a model calls, run in a span of its own under the model call's (traces on only;
// stream-reply.ts wraps the tools when it has a span). Every tool of a reply (web_search,
// read_link, the MCP servers' tools) runs through streamText here, so this is the one place.
import type { ToolSet } from 'ai'
import type { ModelCallSpan } from '#server/lib/telemetry/spans.ts'

export function tracedTools(tools: ToolSet, span: ModelCallSpan): ToolSet {
  const traced: ToolSet = {}
  for (const [name, t] of Object.entries(tools)) {
    const execute = t.execute
    traced[name] = execute
      ? ({
          ...t,
          execute: (input: unknown, options: Parameters<typeof execute>[1]) =>
            span.toolCall({ name, callId: options.toolCallId, description: t.description }, () =>
              execute(input as never, options),
            ),
        } as ToolSet[string])
      : t
  }
  return traced
}
