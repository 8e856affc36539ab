/**
 * Work that outlives its request (a reply still generating after the browser left). Shutdown
 * waits for it, so a deploy does not cut replies off mid-sentence.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<unknown>>()

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
