import { execFileSync } from 'node:child_process'
import path from 'node:path'
// @ts-expect-error: plain ESM script without types
import { buildIsCurrent, root } from '../../../scripts/build-stamp.mjs'
import { prepareTemplateDataDir } from './data-template.ts'
import { closeRegistry, openRegistry } from './server-registry.ts'

/**
 * Browser tests drive the built app: build once if the sources changed since the last build.
 * Then make the migrated data directory every test server starts from a copy of, and the note of
 * running servers whose leftovers the teardown kills.
 */
export default async function setup() {
  if (!buildIsCurrent()) {
    execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
  }
  await prepareTemplateDataDir()
  const servers = openRegistry()
  return () => {
    const killed = closeRegistry(servers)
    if (killed.length > 0)
      console.warn(
        `e2e: ${killed.length} server(s) still running at the end were killed:\n${killed.join('\n')}`,
      )
  }
}
