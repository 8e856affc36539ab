// A zip written as it is read: fflate's streaming Zip fed one entry at a time, pulled by the
// response body, so a large export never sits whole in memory (only the entry being added).
import { promisify } from 'node:util'
import { crc32, deflateRaw } from 'node:zlib'
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

export interface ZipEntry {
  name: string
  data: Uint8Array
  /** false for files already compressed (images, docx, xlsx, pdf): stored as they are. */
  deflate: boolean
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
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        while (queue.length === 0 && !ended) {
          const next = await source.next()
          if (next.done) {
            zip.end()
            break
          }
          const { name, data, deflate } = next.value
          if (deflate) {
            const { file, bytes } = await deflatedEntry(name, data)
            zip.add(file)
            file.ondata?.(null, bytes, true)
          } else {
            const file = new ZipPassThrough(name)
            zip.add(file)
            file.push(data, true)
          }
        }
      } catch (err) {
        failure = err as Error
      }
      if (failure) {
        zip.terminate()
        controller.error(failure)
        return
      }
      while (queue.length) controller.enqueue(queue.shift() as Uint8Array)
      if (ended) controller.close()
    },
    async cancel() {
      zip.terminate()
      await source.return?.()
    },
  })
}
