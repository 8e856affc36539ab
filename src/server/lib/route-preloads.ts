// What the chat's HTML tells the browser to fetch at once (issue 13, decision 018). Without it a
// phone learns of the chat's code only after the entry script has downloaded and run, and of the
// visitor's background poster only after the page has rendered: two round trips on slow 4G.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { THREADS_PAGE_SIZE } from '#contract/threads.ts'

/** One chunk of Vite's build manifest (`build.manifest`), keyed by its source path. */
export interface ManifestChunk {
  file: string
  isEntry?: boolean
  imports?: string[]
}
export type ViteManifest = Record<string, ManifestChunk>

/** The sources (relative to src/client) that make up the /chat route when it first loads. */
export const CHAT_ROUTE_SOURCES = ['features/chat/chat-page.tsx', 'app/page-shell.tsx']

/** The chat's background poster per orientation, as visitor-empty-state.tsx shows it. */
const VISITOR_POSTERS = [
  { href: '/media/chat-bg-portrait-poster.webp', media: '(max-width: 767px)' },
  { href: '/media/chat-bg-wide-poster.webp', media: '(min-width: 768px)' },
]

/**
 * The API answers the chat asks for before it can show anything, exactly as the client fetches
 * them (same address, credentials included), so the browser hands the preloaded answer to the
 * client's fetch instead of asking again after the code has run: who is signed in, the app's
 * configuration and, for a signed-in person, the first page of threads.
 */
const VISITOR_DATA = ['/api/session', '/api/config']
const SIGNED_IN_DATA = [...VISITOR_DATA, `/api/threads?limit=${THREADS_PAGE_SIZE}`]

/** The client's build manifest, or null when the build wrote none (then nothing is preloaded). */
export function readManifest(clientDir: string): ViteManifest | null {
  const file = path.join(clientDir, '.vite', 'manifest.json')
  if (!existsSync(file)) return null
  return JSON.parse(readFileSync(file, 'utf8')) as ViteManifest
}

/**
 * The files the given sources import statically, themselves included, without the entry (which
 * index.html loads already): the chunks a lazy route needs before it can render. Lazy imports
 * (`import()`) are left out on purpose: they load when a screen needs them.
 */
export function staticChunks(manifest: ViteManifest, sources: string[]): string[] {
  const files: string[] = []
  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) return
    if (!chunk.isEntry) files.push(chunk.file)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const source of sources) {
    if (!manifest[source]) throw new Error(`The build manifest has no chunk for ${source}`)
    visit(source)
  }
  return files
}

/** index.html with the chat route's code, first data and (for visitors) poster preloaded. */
export function chatHtml(indexHtml: string, chunks: string[], visitor: boolean): string {
  const already = (file: string) => indexHtml.includes(`/${file}"`)
  const links = [
    ...chunks
      .filter((file) => !already(file))
      .map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">`),
    ...(visitor ? VISITOR_DATA : SIGNED_IN_DATA).map(
      (href) => `    <link rel="preload" as="fetch" crossorigin="use-credentials" href="${href}">`,
    ),
  ]
  // The visitor's largest paint is the poster: let the browser fetch it with the code.
  if (visitor)
    links.unshift(
      ...VISITOR_POSTERS.map(
        (p) => `    <link rel="preload" as="image" href="${p.href}" media="${p.media}" fetchpriority="high">`,
      ),
    )
  if (links.length === 0) return indexHtml
  return indexHtml.replace('</head>', `${links.join('\n')}\n  </head>`)
}
