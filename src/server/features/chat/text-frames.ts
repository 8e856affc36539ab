// Text frames for the streaming hot loop (issue 15): a reply's text goes to the browser at most
// once per FRAME_MS per stream instead of once per token. The first text after a quiet spell
// goes at once (time to first token is not delayed, nor are tokens slower than a frame); text
// arriving faster is gathered and written by one timer shared by every stream of this process.

/** How often gathered text is written: about one screen refresh. */
export const FRAME_MS = 20

const waiting = new Set<TextFrames>()
let scheduled = false

function flushWaiting() {
  scheduled = false
  const now = performance.now()
  for (const frames of waiting) frames.flush(now)
}

export class TextFrames {
  private pending = ''
  private lastWrite = Number.NEGATIVE_INFINITY

  constructor(private readonly write: (text: string) => void) {}

  add(text: string) {
    if (!text) return
    const now = performance.now()
    if (!this.pending && now - this.lastWrite >= FRAME_MS) {
      this.lastWrite = now
      this.write(text)
      return
    }
    this.pending += text
    waiting.add(this)
    if (!scheduled) {
      scheduled = true
      setTimeout(flushWaiting, FRAME_MS)
    }
  }

  /** Writes what is gathered now (before another event, at the end, or on the shared tick). */
  flush(now = performance.now()) {
    waiting.delete(this)
    if (!this.pending) return
    const text = this.pending
    this.pending = ''
    this.lastWrite = now
    this.write(text)
  }

  /** Drops what is gathered (the stream went away). */
  discard() {
    waiting.delete(this)
    this.pending = ''
  }
}
