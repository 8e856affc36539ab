import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Context, Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { isAppPath, paths, routePattern } from '#contract/paths.ts'
import type { AppEnv } from './context.ts'
import {
  ACCOUNT_ROUTE_SOURCES,
  accountHtml,
  CHAT_ROUTE_SOURCES,
  type ChatVisit,
  chatHtml,
  readManifest,
  staticChunks,
} from './route-preloads.ts'
import { SESSION_COOKIE } from './session.ts'

/** Head tags a server-rendered page sets on the shell (link previews read only the HTML). */
export interface HeadMeta {
  title: string
  description: string
  url: string
  noindex: boolean
}

const escapeHtml = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * The shell with its title, description and Open Graph card replaced. Every replacement is a
 * function: a replacement string would read `$&`, `$'` or `$1` in a shared title as patterns.
 */
export function withHead(indexHtml: string, meta: HeadMeta | null): string {
  if (!meta)
    return indexHtml.replace('</head>', () => '    <meta name="robots" content="noindex" />\n  </head>')
  const title = escapeHtml(meta.title)
  const description = escapeHtml(meta.description)
  const tail = `    <meta property="og:url" content="${escapeHtml(meta.url)}" />\n${
    meta.noindex ? '    <meta name="robots" content="noindex" />\n' : ''
  }  </head>`
  return indexHtml
    .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
    .replace(/(<meta\s+name="description"\s+content=")[^"]*"/, (_, tag: string) => `${tag}${description}"`)
    .replace(/(<meta property="og:title" content=")[^"]*"/, (_, tag: string) => `${tag}${title}"`)
    .replace(
      /(<meta\s+property="og:description"\s+content=")[^"]*"/,
      (_, tag: string) => `${tag}${description}"`,
    )
    .replace('<meta property="og:type" content="website" />', '<meta property="og:type" content="article" />')
    .replace('</head>', () => tail)
}

/** The client's chat routes, matched as its router matches them. */
const CHAT_PATH = routePattern(paths.chatThread).pattern
const ACCOUNT_PATH = routePattern(paths.account).pattern

/**
 * Serves the built SPA: hashed assets cached for a year (a missing one is a 404), everything
 * else revalidated, and index.html for any other path: 200 on a client route, 404 elsewhere
 * (the router shows its not-found screen; search engines and link checkers read the status).
 */
export function serveClient(
  app: Hono<AppEnv>,
  clientDir: string,
  publicOrigin: string,
  opts: {
    shareHead?: (token: string) => Promise<HeadMeta | null>
    /** Who opens /chat, for its preloads (features/chat/chat-visit.ts). */
    chatVisit?: (c: Context<AppEnv>) => Promise<ChatVisit>
  } = {},
) {
  const indexPath = path.join(clientDir, 'index.html')
  if (!existsSync(indexPath))
    throw new Error(`The client is not built: ${indexPath} is missing (run npm run build)`)
  // Link previews need absolute URLs, and only the server knows its public address.
  const indexHtml = readFileSync(indexPath, 'utf8').replaceAll(
    'content="/og-image.png"',
    `content="${publicOrigin}/og-image.png"`,
  )
  const root = path.relative(process.cwd(), clientDir) || '.'
  // /chat and /chat/:threadId name their code and first data in the HTML; a visitor's
  // also names the background poster. Who asks decides which, so the answer varies by cookie.
  const manifest = readManifest(clientDir)
  const chatChunks = manifest ? staticChunks(manifest, CHAT_ROUTE_SOURCES) : []
  const accountChunks = manifest ? staticChunks(manifest, ACCOUNT_ROUTE_SOURCES) : []
  const { chatVisit } = opts
  const sendIndex = async (c: Context<AppEnv>) => {
    c.header('Cache-Control', 'no-cache')
    if (!isAppPath(c.req.path)) return c.html(indexHtml, 404)
    if (ACCOUNT_PATH.test(c.req.path)) {
      c.header('Vary', 'Cookie')
      return c.html(accountHtml(indexHtml, accountChunks, Boolean(getCookie(c, SESSION_COOKIE))))
    }
    if (!CHAT_PATH.test(c.req.path)) return c.html(indexHtml)
    c.header('Vary', 'Cookie')
    let visit: ChatVisit = { signedIn: Boolean(getCookie(c, SESSION_COOKIE)), threadId: null }
    if (chatVisit)
      try {
        visit = await chatVisit(c)
      } catch (err) {
        // The page works without its preloads: never fail it over them.
        c.get('log').warn({ err }, 'chat preloads skipped')
      }
    return c.html(chatHtml(indexHtml, chatChunks, visit))
  }
  // The build manifest is for the server only.
  app.get('/.vite/*', (c) => c.notFound())
  app.get('/', sendIndex)
  app.get('/index.html', sendIndex)
  const { shareHead } = opts
  if (shareHead) {
    // A shared conversation's card and robots rule come from its share; a revoked or
    // unknown link answers 404 (the page then says so). Never kept (decision 013): the card
    // quotes the conversation, which must be gone the moment its link is revoked.
    app.get('/share/:token', async (c) => {
      const meta = await shareHead(c.req.param('token'))
      c.header('Cache-Control', 'no-store')
      if (!meta || meta.noindex) c.header('X-Robots-Tag', 'noindex')
      return c.html(withHead(indexHtml, meta), meta ? 200 : 404)
    })
  }

  app.use(
    '/assets/*',
    serveStatic({
      root,
      precompressed: true,
      onFound: (_p, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable')
      },
    }),
  )
  // A chunk this build does not have (a tab still running an older deploy's code asks for it) is
  // a 404, not the shell: as HTML it failed only as a script of the wrong type, and the client
  // must see a missing file to know to load the new version.
  app.get('/assets/*', (c) => {
    c.header('Cache-Control', 'no-cache')
    return c.notFound()
  })
  app.use(
    '*',
    serveStatic({
      root,
      precompressed: true,
      onFound: (p, c) => {
        // index.html must revalidate so a deploy is picked up at once; other files may be cached briefly.
        c.header('Cache-Control', /\.html(\.br|\.gz)?$/.test(p) ? 'no-cache' : 'public, max-age=3600')
      },
    }),
  )
  app.get('*', sendIndex)
}
