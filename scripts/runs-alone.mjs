// Test files that measure time on the main thread (a stall guard around hostile input, a
// per-token delay) say so with the marker below, and run on their own after the others, one at
// a time: the rest of the unit step runs two files at once on two cores, and a thread the OS did
// not run counts as a stall (vitest.config.ts; docs/performance.md, session 27).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

export const RUNS_ALONE_MARKER = '@runs-alone'
const ROOTS = ['src', 'tests/stand-ins', 'scripts', 'bench']

/** Relative paths (from the project root) of the test files carrying the marker. */
export function filesThatRunAlone(root = process.cwd()) {
  const found = []
  const walk = (dir) => {
    let entries
    try {
      entries = readdirSync(path.join(root, dir), { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const rel = path.posix.join(dir, entry.name)
      if (entry.isDirectory()) walk(rel)
      else if (
        /\.test\.tsx?$/.test(entry.name) &&
        readFileSync(path.join(root, rel), 'utf8').includes(RUNS_ALONE_MARKER)
      )
        found.push(rel)
    }
  }
  for (const dir of ROOTS) walk(dir)
  return found.sort()
}
