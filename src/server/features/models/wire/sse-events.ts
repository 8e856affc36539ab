// Server-sent events read from a provider's response, the lean token path (decision 056): one
// string scan per network chunk, no TransformStream per chunk. The `data` of each event is handed
// over as the AI SDK's reader (eventsource-parser) hands it over: lines end with LF, CRLF or CR;
// `data:` lines of one event are joined with LF; one space after the colon is dropped; comments
// and the other fields (event, id, retry) are ignored; an event is dispatched by a blank line, so
// one cut off by the end of the stream is dropped; a byte-order mark at the start is skipped.

const LF = 10
const CR = 13
const SPACE = 32

export class SseEvents {
  /** The start of a line not ended yet. */
  private rest = ''
  private data = ''
  private dataLines = 0
  private first = true

  /** Reads decoded text; calls `onData` with the data of every event it completes. */
  feed(chunk: string, onData: (data: string) => void): void {
    if (this.first && chunk.length > 0) {
      this.first = false
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1)
    }
    let text = chunk
    if (this.rest) {
      text = this.rest + text
      this.rest = ''
    }
    // A CR at the very end waits for the next chunk: it may be the first half of a CRLF.
    const length = text.charCodeAt(text.length - 1) === CR ? text.length - 1 : text.length
    let i = 0
    const hasCr = text.indexOf('\r', i) !== -1
    while (i < length) {
      let end: number
      if (!hasCr) {
        end = text.indexOf('\n', i)
      } else {
        const lf = text.indexOf('\n', i)
        const cr = text.indexOf('\r', i)
        end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf)
      }
      if (end === -1 || end >= length) break
      this.line(text, i, end, onData)
      i = end + 1
      if (text.charCodeAt(end) === CR && text.charCodeAt(i) === LF) i++
    }
    if (i < text.length) this.rest = text.slice(i)
  }

  private line(text: string, start: number, end: number, onData: (data: string) => void) {
    if (start === end) {
      if (this.dataLines > 0) {
        const data = this.data
        this.data = ''
        this.dataLines = 0
        onData(data)
      }
      return
    }
    // The common case first: `data:` (d a t a :).
    if (
      text.charCodeAt(start) === 100 &&
      text.charCodeAt(start + 1) === 97 &&
      text.charCodeAt(start + 2) === 116 &&
      text.charCodeAt(start + 3) === 97 &&
      text.charCodeAt(start + 4) === 58
    ) {
      const from = text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5
      this.addData(text.slice(from, end))
      return
    }
    // A comment (`: keep-alive`) or another field: only `data` matters here.
    if (text.charCodeAt(start) === 58) return
    const colon = text.indexOf(':', start)
    if (colon === -1 || colon >= end) {
      // A field name alone: `data` means an empty data line.
      if (text.slice(start, end) === 'data') this.addData('')
    }
  }

  private addData(value: string) {
    this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`
    this.dataLines++
  }
}
