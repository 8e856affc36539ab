// The load bench's two-point fit (bench/load.ts): what a server's work is per relayed token and
// per stream start and finish, from long replies against short ones at the same concurrency.

/** What a process tree has done so far: CPU (ms) and context switches, its main thread apart. */
export interface Work {
  /** CPU time of every thread, in ms with nanosecond resolution (schedstat). */
  cpu: number
  /** CPU time of the main threads alone (the process's and each cluster worker's). */
  cpuMain: number
  /** Context switches (voluntary and not) of the main threads (the process's and each cluster worker's). */
  switchesMain: number
  /** Context switches of every other thread (the database thread, libuv's pool, V8's helpers). */
  switchesOther: number
}

export const WORK_KEYS = ['cpu', 'cpuMain', 'switchesMain', 'switchesOther'] as const

/** No work: where a sum starts. */
export const none = (): Work => ({ cpu: 0, cpuMain: 0, switchesMain: 0, switchesOther: 0 })

/** `total` plus the work done since `before` (`now - before`), figure by figure. */
export function accrue(total: Work, now: Work, before: Work): Work {
  const out = {} as Work
  for (const k of WORK_KEYS) out[k] = total[k] + now[k] - before[k]
  return out
}

/** One stream as the load client saw it. */
export interface Stream {
  ok: boolean
  /** ms after the request started: each arrival of text. */
  arrivals: number[]
  /** Each token's delay: its arrival minus the moment the stand-in sent it (the stamp in its text). */
  delays: number[]
}

/**
 * The tokens the streams that succeeded relayed: each chunk the stand-in stamped. A reply is the
 * words asked for and its own (the echo's "Echo:" and its history line, six chunks at one word a
 * chunk): counted as the words asked for alone, the fit put their work in every stream's start and
 * finish (decision 038).
 */
export const relayed = (streams: Stream[]) => streams.reduce((n, s) => n + (s.ok ? s.delays.length : 0), 0)

/**
 * The two-point fit: the work of long replies against short ones at the same concurrency gives
 * the work per token (the slope) and per stream start and finish (what is left of the short ones).
 */
export function fitWork(long: Work, short: Work, tokensLong: number, tokensShort: number, streams: number) {
  const perToken = {} as Work
  const perStream = {} as Work
  for (const k of WORK_KEYS) {
    perToken[k] = (long[k] - short[k]) / Math.max(1, tokensLong - tokensShort)
    perStream[k] = (short[k] - perToken[k] * tokensShort) / Math.max(1, streams)
  }
  return { perToken, perStream }
}
