// The CPU priority of one thread. Linux schedules each thread on its own, and setpriority(2) with
// a thread's id (what os.setPriority passes through) changes that thread alone; a thread may
// always lower its own priority, with no privilege (os.getPriority reads a thread's back the same
// way). Elsewhere nothing changes.
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'

/** The calling thread's id: /proc/thread-self links to `<pid>/task/<tid>`. Null off Linux. */
function currentThreadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    return Number.isInteger(tid) && tid > 0 ? tid : null
  } catch {
    return null
  }
}

/** Gives the calling thread `niceness` (0 is the default, 19 the lowest), where it can. */
export function lowerThreadPriority(niceness: number): void {
  const tid = currentThreadId()
  if (tid === null) return
  try {
    setPriority(tid, niceness)
  } catch {
    // Not permitted here (a raise, or a sandbox): the thread keeps its priority.
  }
}
