/**
 * Work that outlives its request (a reply still generating after the browser left). Shutdown
 * waits for it, so a deploy does not cut replies off mid-sentence, then closes what the features
 * kept open for it (sessions with MCP servers).
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<unknown>>()
  private readonly closers: Array<() => Promise<void>> = []

  /** Runs `close` at shutdown, once the tracked work has settled. */
  closeAtStop(close: () => Promise<void>): void {
    this.closers.push(close)
  }

  /** Runs every closer (each once; one failing does not keep the others from running). */
  async close(): Promise<void> {
    const closers = this.closers.splice(0)
    await Promise.allSettled(closers.map((close) => close()))
  }

  track(work: Promise<unknown>): void {
    const settled = work.catch(() => {}).finally(() => this.pending.delete(settled))
    this.pending.add(settled)
  }

  /** Resolves when all tracked work has settled, or after `timeoutMs`; true if all settled. */
  async idle(timeoutMs: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs)
    })
    const all = Promise.all([...this.pending]).then(() => true as const)
    const result = await Promise.race([all, timeout])
    clearTimeout(timer)
    return result
  }

  get size(): number {
    return this.pending.size
  }
}
