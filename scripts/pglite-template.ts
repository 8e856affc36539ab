// `node --import tsx scripts/pglite-template.ts <outDir>`: the ready embedded database a fresh
// DATA_DIR is copied from (src/server/db/pglite-template.ts, decision 022). Run by the build.
import path from 'node:path'
import { migrationsFolder } from '../src/server/db/client.ts'
import { buildTemplate } from '../src/server/db/pglite-template.ts'

const outDir = process.argv[2]
if (!outDir) {
  console.error('usage: pglite-template.ts <outDir>')
  process.exit(2)
}
await buildTemplate(path.resolve(outDir), migrationsFolder)
