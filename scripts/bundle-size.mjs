// Measures the JavaScript the landing route (/) loads on a first visit: the scripts and module
// preloads of the built index.html, the landing page's own chunk, and everything those import
// statically, each gzipped at level 9 (as the server precompresses it). Budget: 90 KB (decision 007).
// `node scripts/bundle-size.mjs [clientDir]` prints a table; `npm run audit` and the bench use
// landingBundleSize(). Build first (npm run build, or LORIS_BUILD_DIR).
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { buildDir } from './build-stamp.mjs'

export const LANDING_JS_BUDGET = 90 * 1024
/**
 * /chat before any message exists (decision 044): 161 KB gzip today, with room to grow a little;
 * the markdown renderer and the thread list are not in it (CHAT_DEFERRED_PACKAGES).
 */
export const CHAT_JS_BUDGET = 215 * 1024
/**
 * ...and in at most this many files (9 today): a phone on slow 4G fetches them over
 * HTTP/1.1's six connections, a round trip each (build/route-chunks.ts, decision 044).
 */
export const CHAT_FILES_BUDGET = 10
/**
 * Packages /chat must not load before it has a conversation or a thread list to show: the
 * markdown renderer (react-markdown, remark, micromark, mdast/hast tools, unified), code
 * highlighting and math, the virtualizer and the desktop's resizable panels; and zod, which checks
 * a reply's stream and comes with the first send (decision 044).
 */
export const CHAT_DEFERRED_PACKAGES =
  /node_modules\/(react-markdown|remark-[\w-]+|micromark[\w-]*|mdast-[\w-]+|hast-[\w-]+|unified|katex|highlight\.js|lowlight|@tanstack\/virtual-core|react-resizable-panels|zod)\//
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** The built client (LORIS_BUILD_DIR's, as build-stamp.mjs reads it). */
export const clientBuildDir = path.join(buildDir, 'client')

// Static `import ... from "./x.js"`, `import "./x.js"` and `export ... from "./x.js"` in
// minified output; `import("./x.js")` (lazy) is deliberately not matched.
const STATIC_IMPORT = /(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+\.js)["']/g

function staticImports(code) {
  return [...code.matchAll(STATIC_IMPORT)].map((m) => m[1])
}

function htmlScripts(html) {
  const scripts = [...html.matchAll(/<script[^>]*\stype="module"[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1])
  const preloads = [...html.matchAll(/<link[^>]*\srel="modulepreload"[^>]*\shref="([^"]+)"/g)].map(
    (m) => m[1],
  )
  return [...scripts, ...preloads]
}

function htmlStyles(html) {
  return [...html.matchAll(/<link[^>]*\srel="stylesheet"[^>]*\shref="([^"]+)"/g)].map((m) => m[1])
}

/** Files and gzip sizes of the JS (and, separately, CSS) a visit to / downloads before it renders. */
export function landingBundleSize(clientDir = clientBuildDir) {
  // The page chunk Vite names after src/client/features/landing/landing-page.tsx.
  return routeBundleSize(clientDir, [/^landing-page-[\w-]+\.js$/])
}

/**
 * The same for /chat: the entry, the chat page's chunk and its static imports (the page shell
 * loaded beside it is in the `app` chunk among them, build/route-chunks.ts). What a reply loads
 * when it needs it (code highlighting, math, the stream reader) is lazy and not counted: the
 * budgets keep /chat's first load from growing.
 */
export function chatBundleSize(clientDir = clientBuildDir) {
  return routeBundleSize(clientDir, [/^chat-page-[\w-]+\.js$/])
}

/** The source files a built chunk was made from, by its source map (empty without one). */
function mappedSources(file) {
  const map = `${file}.map`
  if (!existsSync(map)) return []
  return JSON.parse(readFileSync(map, 'utf8')).sources ?? []
}

/** The deferred packages (CHAT_DEFERRED_PACKAGES) a route's first load holds, with the chunk. */
export function deferredPackagesIn(report) {
  const found = new Set()
  for (const f of report.js)
    for (const source of f.sources) {
      const m = CHAT_DEFERRED_PACKAGES.exec(source)
      if (m) found.add(`${m[1]} (${f.file})`)
    }
  return [...found].sort()
}

function routeBundleSize(clientDir, chunkPatterns) {
  const indexPath = path.join(clientDir, 'index.html')
  if (!existsSync(indexPath)) throw new Error(`${indexPath} is missing: build first (npm run build)`)
  const html = readFileSync(indexPath, 'utf8')
  const assets = readdirSync(path.join(clientDir, 'assets'))
  const chunks = chunkPatterns.map((pattern) => {
    const chunk = assets.find((f) => pattern.test(f))
    if (!chunk) throw new Error(`No chunk matching ${pattern} in the build`)
    return path.join(clientDir, 'assets', chunk)
  })

  const seen = new Map()
  const queue = [...htmlScripts(html).map((src) => path.join(clientDir, src)), ...chunks]
  while (queue.length > 0) {
    const file = path.resolve(queue.shift())
    if (seen.has(file)) continue
    const code = readFileSync(file)
    seen.set(file, {
      file: path.relative(clientDir, file),
      raw: code.length,
      gzip: gzipSync(code, { level: 9 }).length,
      sources: mappedSources(file),
    })
    for (const spec of staticImports(code.toString('utf8')))
      queue.push(path.resolve(path.dirname(file), spec))
  }
  const js = [...seen.values()].sort((a, b) => b.gzip - a.gzip)
  const css = htmlStyles(html).map((href) => {
    const code = readFileSync(path.join(clientDir, href))
    return { file: href.replace(/^\//, ''), raw: code.length, gzip: gzipSync(code, { level: 9 }).length }
  })
  return {
    js,
    css,
    totalJsGzip: js.reduce((n, f) => n + f.gzip, 0),
    totalJsRaw: js.reduce((n, f) => n + f.raw, 0),
    totalCssGzip: css.reduce((n, f) => n + f.gzip, 0),
  }
}

/**
 * Whether the build holds React's development code. Builds started from vitest (NODE_ENV=test)
 * are, and they are far larger: the audit and the bench rebuild rather than measure one.
 */
export function isDevelopmentBuild(clientDir) {
  const assets = path.join(clientDir, 'assets')
  return existsSync(assets) && readdirSync(assets).some((f) => f.startsWith('jsx-dev-runtime'))
}

/** Builds into LORIS_BUILD_DIR (or dist) when the build is stale or a development build. */
export function ensureProductionBuild(buildDir, isCurrent) {
  if (isCurrent() && !isDevelopmentBuild(path.join(buildDir, 'client'))) return
  console.info('Building for production (sources changed, or the last build was a development one)...')
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
}

export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`

export function formatLandingBundle(report) {
  const lines = report.js.map(
    (f) => `  ${kb(f.gzip).padStart(9)} gzip  ${kb(f.raw).padStart(9)} raw  ${f.file}`,
  )
  const verdict = report.totalJsGzip <= LANDING_JS_BUDGET ? 'within' : 'OVER'
  return [
    `JS loaded by / (gzip): ${kb(report.totalJsGzip)} of ${kb(LANDING_JS_BUDGET)} budget, ${verdict} (${report.js.length} files, ${kb(report.totalJsRaw)} raw)`,
    ...lines,
    `CSS loaded by / (gzip): ${kb(report.totalCssGzip)}`,
  ].join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2] ? path.resolve(process.argv[2]) : undefined
  const report = landingBundleSize(dir)
  console.info(formatLandingBundle(report))
  const chat = chatBundleSize(dir)
  const deferred = deferredPackagesIn(chat)
  console.info(
    `JS loaded by /chat before its first message (gzip): ${kb(chat.totalJsGzip)} of ${kb(CHAT_JS_BUDGET)} budget (${chat.js.length} files of ${CHAT_FILES_BUDGET})${deferred.length ? `; holds ${deferred.join(', ')}` : ''}`,
  )
  const ok =
    report.totalJsGzip <= LANDING_JS_BUDGET &&
    chat.totalJsGzip <= CHAT_JS_BUDGET &&
    chat.js.length <= CHAT_FILES_BUDGET &&
    !deferred.length
  process.exitCode = ok ? 0 : 1
}
