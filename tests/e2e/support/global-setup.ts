import { execFileSync } from 'node:child_process'
import path from 'node:path'
// @ts-expect-error: plain ESM script without types
import { buildIsCurrent, root } from '../../../scripts/build-stamp.mjs'
import { prepareTemplateDataDir } from './data-template.ts'

/**
 * Browser tests drive the built app: build once if the sources changed since the last build.
 * Then make the migrated data directory every test server starts from a copy of.
 */
export default async function setup() {
  if (!buildIsCurrent()) {
    execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
  }
  await prepareTemplateDataDir()
}
