// A zip written as it is read: fflate's streaming Zip fed one entry at a time, pulled by the
// response body, so a large export never sits whole in memory (only the entry being added).
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'

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
          const file = deflate ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name)
          zip.add(file)
          file.push(data, true)
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
