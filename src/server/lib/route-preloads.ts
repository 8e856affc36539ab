// What the chat's HTML tells the browser to fetch at once (decision 018). Without it a
// phone learns of the chat's code only after the entry script has downloaded and run, and of the
// visitor's background poster only after the page has rendered: two round trips on slow 4G.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { MESSAGES_PAGE_SIZE } from '#contract/messages.ts'
import { THREADS_PAGE_SIZE } from '#contract/threads.ts'

/** One chunk of Vite's build manifest (`build.manifest`), keyed by its source path. */
export interface ManifestChunk {
  file: string
  isEntry?: boolean
  imports?: string[]
}
export type ViteManifest = Record<string, ManifestChunk>

/**
 * The sources (relative to src/client) that make up the /chat route when it first loads. The page
 * shell (React Query, tooltips) that every lazy page loads beside its own code is built into the
 * `app` chunk the chat page imports (build/route-chunks.ts), so it is among the chat's imports.
 */
export const CHAT_ROUTE_SOURCES = ['app/routes/chat/chat-page.tsx']

/**
 * The sources of /account's first load for a signed-in person: the route (which waits for who is
 * signed in), the settings page it then shows, and the page shell both load beside it.
 */
export const ACCOUNT_ROUTE_SOURCES = [
  'app/page-shell.tsx',
  'app/account-route.tsx',
  'app/routes/account/account-page.tsx',
]

/** The chat's background poster per orientation, as visitor-empty-state.tsx shows it. */
const VISITOR_POSTERS = [
  { href: '/media/chat-bg-portrait-poster.webp', media: '(max-width: 767px)' },
  { href: '/media/chat-bg-wide-poster.webp', media: '(min-width: 768px)' },
]

/**
 * The API answers the chat asks for before it can show anything, exactly as the client fetches
 * them (same address, credentials included), so the browser hands the preloaded answer to the
 * client's fetch instead of asking again after the code has run: who is signed in, the app's
 * configuration and, for a signed-in person, the first page of threads and of the messages of the
 * thread about to be shown.
 */
const VISITOR_DATA = ['/api/session', '/api/config']
const SIGNED_IN_DATA = [...VISITOR_DATA, `/api/threads?limit=${THREADS_PAGE_SIZE}`]
/** What /account reads before it can show the account type: who is signed in, the configuration. */
const ACCOUNT_DATA = VISITOR_DATA

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

/** Who opens the chat: a visitor, or someone signed in and the thread they will see first. */
export interface ChatVisit {
  signedIn: boolean
  /** The thread whose messages the chat shows first (null: none, e.g. /chat/new). */
  threadId: string | null
}

/** The first page of a thread's messages, addressed exactly as the client asks for it. */
export function messagesUrl(threadId: string): string {
  return `/api/messages?${new URLSearchParams({ threadId, limit: String(MESSAGES_PAGE_SIZE) })}`
}

/** index.html with these chunks and API answers asked for at once, and any other head links. */
function withPreloads(indexHtml: string, chunks: string[], data: string[], first: string[] = []): string {
  const already = (file: string) => indexHtml.includes(`/${file}"`)
  const links = [
    ...first,
    ...chunks
      .filter((file) => !already(file))
      // Low priority: after the entry script and the stylesheet, which paint the first frame.
      .map((file) => `    <link rel="modulepreload" crossorigin href="/${file}" fetchpriority="low">`),
    ...data.map((href) => `    <link rel="preload" as="fetch" crossorigin="use-credentials" href="${href}">`),
  ]
  if (links.length === 0) return indexHtml
  return indexHtml.replace('</head>', () => `${links.join('\n')}\n  </head>`)
}

/** index.html with the chat route's code, first data and (for visitors) poster preloaded. */
export function chatHtml(indexHtml: string, chunks: string[], visit: ChatVisit): string {
  const visitor = !visit.signedIn
  const data = [...(visitor ? VISITOR_DATA : SIGNED_IN_DATA)]
  if (visit.signedIn && visit.threadId) data.push(messagesUrl(visit.threadId))
  // The visitor's largest paint is the poster: let the browser fetch it with the code.
  const posters = visitor
    ? VISITOR_POSTERS.map(
        (p) => `    <link rel="preload" as="image" href="${p.href}" media="${p.media}" fetchpriority="high">`,
      )
    : []
  return withPreloads(indexHtml, chunks, data, posters)
}

/**
 * index.html for /account: a signed-in person's settings code and first data asked for at once,
 * as the chat's are, instead of one after the other (the route's code, then who is signed in,
 * then the settings code). A visitor gets the 404 screen, which needs none of it.
 */
export function accountHtml(indexHtml: string, chunks: string[], signedIn: boolean): string {
  return signedIn ? withPreloads(indexHtml, chunks, ACCOUNT_DATA) : indexHtml
}
