import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AiStandIn, startAiStandIn } from '../../tests/stand-ins/ai-providers.ts'
import { chunkStampPattern } from '../../tests/stand-ins/sse.ts'
import { askGemini, geminiStreamUrl, geminiText, readSse, words } from './direct.ts'
import { fitWork, relayed, type Stream, type Work } from './fit.ts'

let standIn: AiStandIn
beforeAll(async () => {
  standIn = await startAiStandIn({ port: 0, host: '127.0.0.1' })
  standIn.setChunkDelayMs(0)
  standIn.setChunkStamps(true)
  // One word a chunk, the bench's default (decision 028).
  standIn.setWordsPerChunk(1)
})
afterAll(() => standIn.close())

/** A reply of the stand-in to `words` words, read as the bench reads one: a stamp per token. */
async function reply(count: number): Promise<Stream> {
  const res = await askGemini(geminiStreamUrl(standIn.geminiBaseUrl), words(count))
  const stream: Stream = { ok: res.ok, arrivals: [], delays: [] }
  await readSse(res, (data) => {
    for (const _ of (geminiText(data) ?? '').matchAll(chunkStampPattern)) stream.delays.push(0)
  })
  return stream
}

/** The work a server whose every stream costs `perStream` and every token relayed `perToken` does. */
const workOf = (streams: Stream[], perStream: number, perToken: number): Work => {
  const cpu = streams.length * perStream + relayed(streams) * perToken
  return { cpu, cpuMain: cpu, switchesMain: 0, switchesOther: 0 }
}

describe("the load bench's fit (decision 038)", () => {
  it('counts the tokens that arrived, the reply’s own included, and so finds what a stream costs', async () => {
    const long = [await reply(100), await reply(100)]
    const short = [await reply(5), await reply(5)]
    // The echo's "Echo:" and its history line, "(history: 1 messages, system: no)": six chunks.
    expect(relayed(long)).toBe(2 * 106)
    expect(relayed(short)).toBe(2 * 11)
    expect(relayed([{ ...short[0]!, ok: false }])).toBe(0)

    const fit = fitWork(workOf(long, 3, 0.5), workOf(short, 3, 0.5), relayed(long), relayed(short), 2)
    expect(fit.perToken.cpu).toBeCloseTo(0.5, 9)
    expect(fit.perStream.cpu).toBeCloseTo(3, 9)
    // Counted as the words asked for, the same work put six tokens' cost in each start and finish.
    const asked = fitWork(workOf(long, 3, 0.5), workOf(short, 3, 0.5), 200, 10, 2)
    expect(asked.perStream.cpu).toBeCloseTo(3 + 6 * 0.5, 9)
  })
})
