import { describe, expect, it } from 'vitest'
import { ChatEventLineError, parseChatEventLine } from './chat-events.ts'

describe('parseChatEventLine', () => {
  it('reads a data line, with or without the space after the colon', () => {
    expect(parseChatEventLine('data: {"id":"m1","text":"Hi"}')).toEqual({ id: 'm1', text: 'Hi' })
    expect(parseChatEventLine('data:{"done":true}')).toEqual({ done: true })
  })
  it('skips keep-alive comments, blank lines, empty data and other fields', () => {
    expect(parseChatEventLine(': keep-alive')).toBeNull()
    expect(parseChatEventLine('')).toBeNull()
    expect(parseChatEventLine('data: ')).toBeNull()
    expect(parseChatEventLine('event: message')).toBeNull()
  })
  it('takes CRLF line ends', () => {
    expect(parseChatEventLine('data: {"done":true}\r')).toEqual({ done: true })
  })
  it('throws for a data line that is not JSON or not an event', () => {
    expect(() => parseChatEventLine('data: <html>')).toThrow(ChatEventLineError)
    expect(() => parseChatEventLine('data: {"text":42}')).toThrow(ChatEventLineError)
    expect(() => parseChatEventLine('data: [1]')).toThrow(ChatEventLineError)
  })
})
