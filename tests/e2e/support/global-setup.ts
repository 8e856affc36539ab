import { execFileSync } from 'node:child_process'
import path from 'node:path'
// @ts-expect-error: plain ESM script without types
import { buildIsCurrent, root } from '../../../scripts/build-stamp.mjs'

/** Browser tests drive the built app: build once if the sources changed since the last build. */
export default function setup() {
  if (!buildIsCurrent()) {
    execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
  }
}
