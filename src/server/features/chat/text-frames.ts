// A reply's text goes to the browser at most once per frame per stream, not once per token. The
// first text after a quiet spell goes at once; text arriving faster is gathered and written by one
// timer shared by every stream. The frame grows with the streams open (decision 019): each write is
// a system call, so under load a frame carries several tokens; with one stream it is 1 ms.

/** The shortest frame, with one stream open: the most a token waits when nothing else does. */
export const MIN_FRAME_MS = 1
/** The longest frame, with MAX_FRAME_MS or more streams open (1 ms per open stream between). */
export const MAX_FRAME_MS = 50

const waiting = new Set<TextFrames>()
let scheduled = false
let open = 0

/** The frame now: 1 ms per stream open, from MIN_FRAME_MS to MAX_FRAME_MS. */
export function frameMs(): number {
  return Math.min(MAX_FRAME_MS, Math.max(MIN_FRAME_MS, open))
}

/** Streams following a generation in this process (tests check that a departed client leaves). */
export const openStreams = () => open

function flushWaiting() {
  scheduled = false
  const now = performance.now()
  for (const frames of waiting) frames.flush(now)
}

export class TextFrames {
  private pending = ''
  private lastWrite = Number.NEGATIVE_INFINITY
  private closed = false

  constructor(private readonly write: (text: string) => void) {
    open++
  }

  add(text: string) {
    if (!text) return
    const now = performance.now()
    if (!this.pending && now - this.lastWrite >= frameMs()) {
      this.lastWrite = now
      this.write(text)
      return
    }
    this.pending += text
    waiting.add(this)
    if (!scheduled) {
      scheduled = true
      setTimeout(flushWaiting, frameMs())
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

  /** Drops what is gathered: the stream ended or went away (it no longer counts as open). */
  discard() {
    waiting.delete(this)
    this.pending = ''
    if (!this.closed) {
      this.closed = true
      open--
    }
  }
}
