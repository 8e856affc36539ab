// Builds the client (Vite) and the server (one esbuild bundle), precompresses static files,
// and stamps the build with a hash of its inputs so `npm start` can tell when to rebuild.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { buildDir, buildInputsHash, root, stampFile } from './build-stamp.mjs'

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/

function precompress(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) {
      precompress(file)
      continue
    }
    if (!COMPRESSIBLE.test(name) || statSync(file).size < 1024) continue
    const data = readFileSync(file)
    writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }))
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    )
  }
}

const started = Date.now()
execFileSync(
  process.execPath,
  [
    path.join(root, 'node_modules/vite/bin/vite.js'),
    'build',
    '--logLevel',
    'warn',
    '--outDir',
    path.join(buildDir, 'client'),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    // Always a production client, even when the build runs inside a test (NODE_ENV=test would
    // ship development React).
    env: { ...process.env, NODE_ENV: 'production' },
  },
)
precompress(path.join(buildDir, 'client'))
await build({
  // The parse worker (src/server/features/attachments/parse-pool.ts) is a second entry, emitted
  // beside main.js as parse-worker.js, where the pool looks for it.
  entryPoints: {
    main: path.join(root, 'src/server/main.ts'),
    'parse-worker': path.join(root, 'src/server/features/attachments/parse-worker.ts'),
    // The embedded database's thread (src/server/db/pglite-thread.ts), beside main.js too.
    'pglite-worker': path.join(root, 'src/server/db/pglite-worker.ts'),
  },
  outdir: path.join(buildDir, 'server'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // npm packages stay in node_modules; our own code (including #server/* imports) is bundled.
  external: Object.keys(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies ?? {}),
  logLevel: 'warning',
})
// A fresh DATA_DIR starts as a copy of a database initialised and migrated here, once, instead
// of running PGlite's initdb and every migration on first start (decision 022).
execFileSync(
  process.execPath,
  [
    '--import',
    'tsx',
    path.join(root, 'scripts/pglite-template.ts'),
    path.join(buildDir, 'server/pglite-template'),
  ],
  { cwd: root, stdio: 'inherit' },
)
writeFileSync(stampFile, buildInputsHash())
console.info(`Built client and server in ${((Date.now() - started) / 1000).toFixed(1)} s`)
