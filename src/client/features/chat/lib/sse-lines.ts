// Reads the POST /api/messages body (spec section 7): text arrives in arbitrary pieces; events are
// `data: {json}` lines. Comments (':') and blank lines are skipped; a data line that is not JSON
// means something other than our server answered.
import { type ChatEvent, chatEventSchema } from '#contract/chat-events.ts'

export const NON_JSON_MESSAGE = 'Received non-JSON response from server'
export const NO_STREAM_MESSAGE = 'No response stream available'

/** Parses one line; null when it carries no event. Throws on a data line that is not JSON. */
export function parseSseLine(line: string): ChatEvent | null {
  const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line
  if (!trimmed.startsWith('data:')) return null
  const payload = trimmed.slice(5).trimStart()
  if (!payload) return null
  let json: unknown
  try {
    json = JSON.parse(payload)
  } catch {
    throw new Error(NON_JSON_MESSAGE)
  }
  const parsed = chatEventSchema.safeParse(json)
  if (!parsed.success) throw new Error(NON_JSON_MESSAGE)
  return parsed.data
}

/** Feeds decoded text pieces in, gets whole events out; a line split across pieces waits. */
export function createSseLineReader() {
  let buffer = ''
  return {
    push(piece: string): ChatEvent[] {
      buffer += piece
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      const events: ChatEvent[] = []
      for (const line of lines) {
        const event = parseSseLine(line)
        if (event) events.push(event)
      }
      return events
    },
    /** The last line, if the body ended without a newline. */
    flush(): ChatEvent[] {
      const rest = buffer
      buffer = ''
      const event = rest ? parseSseLine(rest) : null
      return event ? [event] : []
    },
  }
}
