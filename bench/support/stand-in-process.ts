// The AI stand-in in its own process for the load bench: `--delay` ms between chunks of
// `--words-per-chunk` words, each chunk stamped with the moment it is sent. Prints one JSON line
// with its URLs, then serves until it is told to stop.
import { parseArgs } from 'node:util'
import { startAiStandIn } from '../../tests/stand-ins/ai-providers.ts'

const { values } = parseArgs({
  options: { delay: { type: 'string', default: '20' }, 'words-per-chunk': { type: 'string', default: '1' } },
})
const standIn = await startAiStandIn({ port: 0, host: '127.0.0.1' })
standIn.setChunkDelayMs(Number(values.delay))
standIn.setChunkStamps(true)
standIn.setWordsPerChunk(Number(values['words-per-chunk']))
process.stdout.write(`${JSON.stringify({ gemini: standIn.geminiBaseUrl })}\n`)
const stop = () => void standIn.close().then(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
