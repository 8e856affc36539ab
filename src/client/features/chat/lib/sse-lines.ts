// Reads the POST /api/messages body (spec section 7): text arrives in arbitrary pieces; events are
// `data: {json}` lines. Comments (':') and blank lines are skipped; a data line that is not JSON
// means something other than our server answered.
import { type ChatEvent, parseChatEventLine } from '#contract/chat-events.ts'
import { NON_JSON_MESSAGE } from './stream-messages.ts'

/** Parses one line; null when it carries no event. Throws the person's message on a data line that is not an event. */
export function parseSseLine(line: string): ChatEvent | null {
  try {
    return parseChatEventLine(line)
  } catch {
    throw new Error(NON_JSON_MESSAGE)
  }
}

/**
 * Feeds decoded text pieces in, gets whole lines out; a line split across pieces waits for its
 * end. The one splitter of a stream's text (also the bench's and the tests' stream readers).
 */
export function createLineSplitter() {
  let buffer = ''
  return {
    push(piece: string): string[] {
      buffer += piece
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      return lines
    },
    /** The last line, if the text ended without a newline. */
    flush(): string {
      const rest = buffer
      buffer = ''
      return rest
    },
  }
}

/** Feeds decoded text pieces in, gets whole events out; a line split across pieces waits. */
export function createSseLineReader() {
  const lines = createLineSplitter()
  return {
    push(piece: string): ChatEvent[] {
      const events: ChatEvent[] = []
      for (const line of lines.push(piece)) {
        const event = parseSseLine(line)
        if (event) events.push(event)
      }
      return events
    },
    /** The last line, if the body ended without a newline. */
    flush(): ChatEvent[] {
      const rest = lines.flush()
      const event = rest ? parseSseLine(rest) : null
      return event ? [event] : []
    },
  }
}
