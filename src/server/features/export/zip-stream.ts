// A zip written as it is read: fflate's streaming Zip fed one entry at a time, pulled by the
// response body, so a large export never sits whole in memory. An entry is bytes at hand (JSON,
// Markdown) or a stored file's stream, read a chunk per pull: a file never sits whole either.
import { promisify } from 'node:util'
import { crc32, createDeflateRaw, deflateRaw } from 'node:zlib'
import { Zip, type ZipInputFile, ZipPassThrough } from 'fflate'

const deflateRawAsync = promisify(deflateRaw)

/**
 * An entry deflated by Node's zlib on its thread pool, handed to the zip whole. fflate's own
 * ZipDeflate compresses on the main thread: a 20 MB text file held it 0.67 s, for every export
 * anyone asked for.
 */
async function deflatedEntry(
  name: string,
  data: Uint8Array,
): Promise<{ file: ZipInputFile; bytes: Uint8Array<ArrayBuffer> }> {
  // zlib's Buffers sit on plain (never shared) ArrayBuffers.
  const bytes = (await deflateRawAsync(data, { level: 6 })) as Uint8Array<ArrayBuffer>
  return { file: { filename: name, size: data.length, crc: crc32(data), compression: 8 }, bytes }
}

export type ZipEntry = {
  name: string
  /** false for files already compressed (images, docx, xlsx, pdf): stored as they are. */
  deflate: boolean
} & ({ data: Uint8Array } | { stream: ReadableStream<Uint8Array> })

/** A streamed entry being written: one chunk of its source per call of `step`. */
interface OpenEntry {
  step(): Promise<void>
  cancel(): Promise<void>
}

/** Stored as it comes: fflate counts its size and CRC as the chunks pass. */
function passedEntry(
  zip: Zip,
  name: string,
  source: ReadableStream<Uint8Array>,
  done: () => void,
): OpenEntry {
  const file = new ZipPassThrough(name)
  zip.add(file)
  const reader = source.getReader()
  return {
    async step() {
      const { value, done: last } = await reader.read()
      if (last) {
        file.push(new Uint8Array(0), true)
        done()
      } else file.push(value, false)
    },
    cancel: () => reader.cancel(),
  }
}

/**
 * Deflated as it comes, by a zlib stream on the thread pool (never the main thread, see
 * deflatedEntry); the size and CRC reach the zip in the entry's data descriptor at its end.
 */
function deflatedStreamEntry(
  zip: Zip,
  name: string,
  source: ReadableStream<Uint8Array>,
  done: () => void,
): OpenEntry {
  const file: ZipInputFile = { filename: name, size: 0, crc: 0, compression: 8 }
  zip.add(file)
  const deflater = createDeflateRaw({ level: 6 })
  // zlib's Buffers sit on plain (never shared) ArrayBuffers.
  deflater.on('data', (out: Uint8Array<ArrayBuffer>) => file.ondata?.(null, out, false))
  const ended = new Promise<void>((resolve, reject) => {
    deflater.once('end', resolve)
    deflater.once('error', reject)
  })
  const reader = source.getReader()
  return {
    async step() {
      const { value, done: last } = await reader.read()
      if (last) {
        deflater.end()
        await ended
        file.ondata?.(null, new Uint8Array(0), true)
        done()
        return
      }
      file.size += value.length
      file.crc = crc32(value, file.crc)
      // Written and flushed before the next chunk is read: at most a chunk waits in zlib.
      await new Promise<void>((resolve, reject) => {
        deflater.write(value, (err) => (err ? reject(err) : resolve()))
      })
    },
    async cancel() {
      deflater.destroy()
      await reader.cancel()
    },
  }
}

export function zipStream(entries: AsyncIterable<ZipEntry>): ReadableStream<Uint8Array> {
  const queue: Uint8Array[] = []
  let failure: Error | null = null
  let ended = false
  const zip = new Zip((err, chunk, final) => {
    if (err) failure = err
    else queue.push(chunk)
    if (final) ended = true
  })
  const source = entries[Symbol.asyncIterator]()
  let open: OpenEntry | null = null
  const closed = () => {
    open = null
  }

  /** One piece of work: a chunk of the entry under way, or the next entry. */
  async function step() {
    if (open) return open.step()
    const next = await source.next()
    if (next.done) {
      zip.end()
      return
    }
    const entry = next.value
    if ('stream' in entry) {
      open = (entry.deflate ? deflatedStreamEntry : passedEntry)(zip, entry.name, entry.stream, closed)
    } else if (entry.deflate) {
      const { file, bytes } = await deflatedEntry(entry.name, entry.data)
      zip.add(file)
      file.ondata?.(null, bytes, true)
    } else {
      const file = new ZipPassThrough(entry.name)
      zip.add(file)
      file.push(entry.data, true)
    }
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        while (queue.length === 0 && !ended) await step()
      } catch (err) {
        failure = err as Error
      }
      if (failure) {
        zip.terminate()
        await open?.cancel().catch(() => {})
        controller.error(failure)
        return
      }
      while (queue.length) controller.enqueue(queue.shift() as Uint8Array)
      if (ended) controller.close()
    },
    async cancel() {
      zip.terminate()
      await open?.cancel().catch(() => {})
      await source.return?.()
    },
  })
}
