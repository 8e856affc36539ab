// `npm start`: builds what is not built (or is stale), then runs the server. Migrations are
// applied by the server itself at start-up.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildDir, buildIsCurrent, root } from './build-stamp.mjs'

if (!buildIsCurrent()) {
  console.info('Building Loris (first start or sources changed)...')
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
}
await import(pathToFileURL(path.join(buildDir, 'server/main.js')).href)
