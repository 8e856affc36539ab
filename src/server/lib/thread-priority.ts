// The CPU priority of one thread. Linux schedules each thread on its own, and setpriority(2) with
// a thread's id (what os.setPriority passes through) changes that thread alone; a thread may
// always lower its own priority, with no privilege. Elsewhere nothing changes.
import { readFileSync, readlinkSync } from 'node:fs'
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

/** Gives the calling thread `niceness` (0 is the default, 19 the lowest); false where it cannot. */
export function lowerThreadPriority(niceness: number): boolean {
  const tid = currentThreadId()
  if (tid === null) return false
  try {
    setPriority(tid, niceness)
    return true
  } catch {
    return false
  }
}

/** The niceness of a thread of this process, as the kernel reports it; null if it is gone. */
export function threadNiceness(tid: number): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    // The fields after the command name (which may hold spaces), from the state on: nice is 19th.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
  } catch {
    return null
  }
}
