// A background job run on an interval: the lease sweep, the embedded database's upkeep. A slow
// database must not pile runs up, so a tick while a run is under way is skipped; the timer is
// unref'd (it never keeps the process alive); stopping waits for the run under way.

export interface RepeatingJob {
  stop(): Promise<void>
}

export function startRepeatingJob(
  run: () => Promise<unknown>,
  everyMs: number,
  opts: {
    onError: (err: unknown) => void
    /** Run once at start; otherwise the first run is after `firstAfterMs`, or one period. */
    runNow?: boolean
    firstAfterMs?: number
  },
): RepeatingJob {
  let running: Promise<unknown> | null = null
  let stopped = false
  const tick = () => {
    if (running || stopped) return
    running = run()
      .catch(opts.onError)
      .finally(() => {
        running = null
      })
  }
  if (opts.runNow) tick()
  const first = opts.firstAfterMs === undefined ? undefined : setTimeout(tick, opts.firstAfterMs)
  first?.unref()
  const timer = setInterval(tick, everyMs)
  timer.unref()
  return {
    async stop() {
      stopped = true
      clearTimeout(first)
      clearInterval(timer)
      await running
    },
  }
}
