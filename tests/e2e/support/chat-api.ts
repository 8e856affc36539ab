// The chat driven through its HTTP API, for tests whose subject is the server process (a crash,
// a stop) rather than the page: an account, and a send's events read as far as a test needs.
import { expect } from 'vitest'
import { createLineSplitter } from '../../../src/client/features/chat/lib/sse-lines.ts'
import { type ChatEvent, parseChatEventLine } from '../../../src/contract/chat-events.ts'

/** Signs a new person up; returns their session cookie (`name=value`). */
export async function signUp(url: string, label: string): Promise<string> {
  const res = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({
      email: `${label}-${crypto.randomUUID()}@example.com`,
      password: 'a strong password',
    }),
  })
  expect(res.status).toBe(201)
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('loris_session='))
  if (!cookie) throw new Error('no session cookie')
  return cookie.split(';')[0] as string
}

/** A send's stream, read by one reader: `until` reads on until the events so far satisfy it. */
export function chatEvents(res: Response) {
  const reader = res.body?.pipeThrough(new TextDecoderStream()).getReader()
  if (!reader) throw new Error('no stream')
  const seen: ChatEvent[] = []
  const lines = createLineSplitter()
  return {
    async until(enough: (events: ChatEvent[]) => boolean): Promise<ChatEvent[]> {
      while (!enough(seen)) {
        const { value, done } = await reader.read()
        if (done) break
        for (const line of lines.push(value)) {
          const event = parseChatEventLine(line)
          if (event) seen.push(event)
        }
      }
      return seen
    },
    /** Stops reading; the stream is left to the server's fate. */
    cancel: () => void reader.cancel().catch(() => undefined),
  }
}
