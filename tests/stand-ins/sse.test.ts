// The load bench's chunk stamps (decision 028): a reader recovers each token's delay from its stamp
// and its arrival, and the stamp adds no word to a reply's search index.
import { PGlite } from '@electric-sql/pglite'
import { describe, expect, it } from 'vitest'
import { chunkStamp, chunkStampPattern, stampDelayMs } from './sse.ts'

const delays = (text: string, arrivedMs: number) =>
  [...text.matchAll(chunkStampPattern)].map((m) => stampDelayMs(m[0], arrivedMs))

describe('chunk stamps', () => {
  const sentMs = 1_763_900_000_123.456

  it('give back each delay to the microsecond, from a frame that gathered several tokens', () => {
    const frame = `w0 w1 w2 ${chunkStamp(sentMs * 1000)}w3 w4 w5 ${chunkStamp((sentMs + 20.25) * 1000)}`
    expect(delays(frame, sentMs + 40.5)).toEqual([40.5, 20.25])
  })

  it('stay right across the span they count modulo, and for an arrival stamped a hair later', () => {
    const span = 23 ** 6
    const atWrap = Math.ceil((sentMs * 1000) / span) * span - 3
    expect(delays(chunkStamp(atWrap), (atWrap + 5_000) / 1000)).toEqual([5])
    expect(delays(chunkStamp(sentMs * 1000 + 2), sentMs)).toEqual([-0.002])
    expect(delays(chunkStamp(sentMs * 1000), sentMs + 60_000)).toEqual([60_000])
  })

  it('are 7 bytes of punctuation and a space, found only where they are', () => {
    const stamp = chunkStamp()
    expect(Buffer.byteLength(stamp)).toBe(7)
    expect(stamp).toMatch(/^[^\w\s]{6} $/)
    const text = `Echo: w0 w1 w2 ${stamp}(history: 1 messages, system: yes)${stamp}`
    expect([...text.matchAll(chunkStampPattern)].map((m) => m[0])).toEqual([stamp, stamp])
  })

  it('leave the search vector of a reply as the words alone make it', async () => {
    const db = new PGlite()
    const words = 'w0 w1 w2 w3 w4 w5 '
    const stamped = `w0 w1 w2 ${chunkStamp()}w3 w4 w5 ${chunkStamp()}`
    const { rows } = await db.query<{ same: boolean; lexemes: string }>(
      `select to_tsvector('simple', $1) = to_tsvector('simple', $2) as same, to_tsvector('simple', $2)::text as lexemes`,
      [words, stamped],
    )
    await db.close()
    expect(rows[0]).toEqual({ same: true, lexemes: "'w0':1 'w1':2 'w2':3 'w3':4 'w4':5 'w5':6" })
  })
})
