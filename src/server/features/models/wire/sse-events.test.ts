// The SSE reader of the hot loop (decision 056) hands over the same event data as the AI SDK's
// reader (eventsource-parser), however the bytes are cut into network chunks.
import { EventSourceParserStream } from 'eventsource-parser/stream'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SseEvents } from './sse-events.ts'

function read(chunks: string[]): string[] {
  const events = new SseEvents()
  const out: string[] = []
  for (const chunk of chunks) events.feed(chunk, (d) => out.push(d))
  return out
}

/** What the SDK's reader makes of the same text. */
async function reference(text: string): Promise<string[]> {
  const out: string[] = []
  const stream = new ReadableStream<string>({
    start(c) {
      c.enqueue(text)
      c.close()
    },
  }).pipeThrough(new EventSourceParserStream())
  for await (const e of stream) out.push(e.data)
  return out
}

describe('SseEvents', () => {
  it('reads data lines, joins multi-line data, skips comments and other fields', () => {
    const text = [
      ': keep-alive',
      'event: message',
      'id: 7',
      'data: {"a":1}',
      '',
      'data:{"b":2}',
      'data: second line',
      '',
      'retry: 100',
      'data: [DONE]',
      '',
      '',
    ].join('\n')
    expect(read([text])).toEqual(['{"a":1}', '{"b":2}\nsecond line', '[DONE]'])
  })

  it('accepts CRLF and lone CR line endings, even with CR and LF in different chunks', () => {
    expect(read(['data: one\r\n\r\ndata: two\r\r\n'])).toEqual(['one', 'two'])
    expect(read(['data: one\r', '\n\r', '\ndata: two\r\n', '\r\n'])).toEqual(['one', 'two'])
  })

  it('drops an event the stream cut off before its blank line, and a byte-order mark', () => {
    expect(read(['\uFEFFdata: whole\n\n', 'data: cut'])).toEqual(['whole'])
  })

  it('gives what the SDK reader gives, however the text is split', async () => {
    const line = fc.oneof(
      fc.constantFrom('', ': comment', 'event: x', 'id: 1', 'data', 'data:', 'data: [DONE]'),
      fc.string({ maxLength: 12 }).map((s) => `data: ${s.replace(/[\r\n]/g, '')}`),
      fc.string({ maxLength: 8 }).map((s) => `data:${s.replace(/[\r\n]/g, '')}`),
    )
    const eol = fc.constantFrom('\n', '\r\n', '\r')
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(line, eol), { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (lines, cuts) => {
          const text = lines.map(([l, e]) => l + e).join('')
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
          const chunks = [0, ...points, text.length].slice(1).map((end, i, all) => {
            const start = i === 0 ? 0 : (all[i - 1] as number)
            return text.slice(start, end)
          })
          chunks.unshift(text.slice(0, 0))
          expect(read(chunks)).toEqual(await reference(text))
        },
      ),
      { numRuns: 300 },
    )
  })
})
