// Test files found by what they say: the PostgreSQL step's (those whose database follows
// TEST_DATABASE_URL, test-pg.mjs) and the unit files that run alone (runs-alone.mjs).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/** Relative posix paths, sorted, of the `*.test.ts(x)` files under `dirs` whose text passes `test`. */
export function testFilesWhose(dirs, test, root = process.cwd()) {
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
      else if (/\.test\.tsx?$/.test(entry.name) && test(readFileSync(path.join(root, rel), 'utf8')))
        found.push(rel)
    }
  }
  for (const dir of dirs) walk(dir)
  return found.sort()
}
