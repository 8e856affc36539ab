// A background job run on an interval: the lease sweep, the embedded database's upkeep. A slow
// database must not pile runs up, so a tick while a run is under way is skipped; the timer is
// unref'd (it never keeps the process alive); stopping waits for the run under way.

export interface RepeatingJob {
  stop(): Promise<void>
}

export function startRepeatingJob(
  run: () => Promise<unknown>,
  everyMs: number,
  opts: { onError: (err: unknown) => void; runNow?: boolean },
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
  const timer = setInterval(tick, everyMs)
  timer.unref()
  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
