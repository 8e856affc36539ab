import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Context, Hono } from 'hono'
import type { AppEnv } from './context.ts'

/**
 * Serves the built SPA: hashed assets cached for a year, everything else revalidated, and
 * index.html for any client route (the router shows the 404 screen itself).
 */
export function serveClient(app: Hono<AppEnv>, clientDir: string, publicOrigin: string) {
  const indexPath = path.join(clientDir, 'index.html')
  if (!existsSync(indexPath))
    throw new Error(`The client is not built: ${indexPath} is missing (run npm run build)`)
  // Link previews need absolute URLs, and only the server knows its public address.
  const indexHtml = readFileSync(indexPath, 'utf8').replaceAll(
    'content="/og-image.png"',
    `content="${publicOrigin}/og-image.png"`,
  )
  const root = path.relative(process.cwd(), clientDir) || '.'
  const sendIndex = (c: Context<AppEnv>) => {
    c.header('Cache-Control', 'no-cache')
    return c.html(indexHtml)
  }
  app.get('/', sendIndex)
  app.get('/index.html', sendIndex)

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
