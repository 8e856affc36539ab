import { describe, expect, it } from 'vitest'
import { createSseLineReader, parseSseLine } from './sse-lines.ts'
import { NON_JSON_MESSAGE } from './stream-messages.ts'

// The line format itself is parseChatEventLine's (src/contract/chat-events.test.ts).
describe('parseSseLine', () => {
  it('reads a data line and skips a comment', () => {
    expect(parseSseLine('data: {"id":"m1","text":"Hi"}')).toEqual({ id: 'm1', text: 'Hi' })
    expect(parseSseLine(': keep-alive')).toBeNull()
  })
  it('throws the non-JSON message for a data line that is not an event', () => {
    expect(() => parseSseLine('data: <html>')).toThrow(NON_JSON_MESSAGE)
    expect(() => parseSseLine('data: {"text":42}')).toThrow(NON_JSON_MESSAGE)
  })
})

describe('createSseLineReader', () => {
  it('joins lines split across pieces and keeps order', () => {
    const reader = createSseLineReader()
    expect(reader.push('data: {"text":"He')).toEqual([])
    expect(reader.push('llo"}\n\ndata: {"text":" world"}\n')).toEqual([{ text: 'Hello' }, { text: ' world' }])
    expect(reader.push(': keep-alive\n\ndata: {"done":true,"status":"complete"}')).toEqual([])
    expect(reader.flush()).toEqual([{ done: true, status: 'complete' }])
  })
  it('reads an error event', () => {
    const reader = createSseLineReader()
    expect(reader.push('data: {"error":"Model down","code":"bad_gateway:provider"}\n\n')).toEqual([
      { error: 'Model down', code: 'bad_gateway:provider' },
    ])
  })
})
