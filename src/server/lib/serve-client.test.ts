import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppEnv } from './context.ts'
import { serveClient, withHead } from './serve-client.ts'

const shell = readFileSync('src/client/index.html', 'utf8')

describe('withHead', () => {
  it("writes a title and description holding replacement patterns ('$10 $& $` $'') as they are", () => {
    // String.replace reads `$&`, `$'`, `` $` `` and `$1` in a replacement string: a person's
    // words must never be read that way.
    const tricky = 'Should I pay $10? $& $` $\' $$ <b>"x"</b>'
    const html = withHead(shell, {
      title: `${tricky} | Shared on Loris`,
      description: tricky,
      url: 'http://localhost:5000/share/abc',
      noindex: true,
    })
    const escaped = "Should I pay $10? $&amp; $` $' $$ &lt;b&gt;&quot;x&quot;&lt;/b&gt;"
    const title = `${escaped} | Shared on Loris`
    // The expected page, made without any replacement pattern: each tag's content split out and
    // joined back with the new text.
    const swap = (doc: string, tag: RegExp, content: string) => {
      const found = doc.match(tag)
      if (!found?.[1]) throw new Error(`not in the shell: ${tag}`)
      return doc.split(found[0]).join(`${found[1]}${content}"`)
    }
    const oldTitle = shell.match(/<title>[^<]*<\/title>/)?.[0] ?? '<title> missing'
    let expected = shell.split(oldTitle).join(`<title>${title}</title>`)
    expected = swap(expected, /(<meta\s+name="description"\s+content=")[^"]*"/, escaped)
    expected = swap(expected, /(<meta property="og:title" content=")[^"]*"/, title)
    expected = swap(expected, /(<meta\s+property="og:description"\s+content=")[^"]*"/, escaped)
    expected = swap(expected, /(<meta property="og:type" content=")website"/, 'article')
    expected = expected
      .split('</head>')
      .join(
        '    <meta property="og:url" content="http://localhost:5000/share/abc" />\n    <meta name="robots" content="noindex" />\n  </head>',
      )
    expect(html).toBe(expected)
    // The title once in <title> and once in og:title; the description in its two tags; the body
    // exactly as it was.
    expect(html.split(`<title>${title}</title>`)).toHaveLength(2)
    expect(html.split(`content="${title}"`)).toHaveLength(2)
    expect(html.split(`content="${escaped}"`)).toHaveLength(3)
    expect(html.slice(html.indexOf('</head>'))).toBe(shell.slice(shell.indexOf('</head>')))
  })

  it('marks an unknown share noindex and changes nothing else', () => {
    expect(withHead(shell, null)).toBe(
      shell.split('</head>').join('    <meta name="robots" content="noindex" />\n  </head>'),
    )
  })
})

describe('serveClient', () => {
  const clientDir = mkdtempSync(path.join(tmpdir(), 'loris-serve-client-'))
  const app = new Hono<AppEnv>()
  beforeAll(() => {
    mkdirSync(path.join(clientDir, 'assets'))
    writeFileSync(path.join(clientDir, 'index.html'), shell)
    writeFileSync(path.join(clientDir, 'assets', 'present-A1.js'), 'export {}')
    serveClient(app, clientDir, 'http://localhost:5000', {
      shareHead: async (token) =>
        token === 'known'
          ? { title: 'Lorises | Shared on Loris', description: 'd', url: 'u', noindex: true }
          : null,
    })
  })
  afterAll(() => rmSync(clientDir, { recursive: true, force: true }))

  it("answers a chunk the build does not have (an older deploy's) with 404, not the shell", async () => {
    const missing = await app.request('/assets/missing.js')
    expect(missing.status).toBe(404)
    expect(await missing.text()).not.toContain('<div id="root">')
    expect((await app.request('/assets/present-A1.js')).status).toBe(200)
    // A client route still gets the shell.
    const route = await app.request('/account')
    expect(route.status).toBe(200)
    expect(await route.text()).toContain('<div id="root">')
  })

  it('answers 404 with the shell for a path no client route knows, 200 for every route', async () => {
    for (const path of ['/no/such/page', '/chatx', '/chat/a/b', '/share', '/index.html', '/account/x']) {
      const res = await app.request(path)
      expect(res.status, path).toBe(404)
      // The shell still comes: its router shows the not-found screen.
      expect(await res.text(), path).toContain('<div id="root">')
    }
    for (const path of [
      '/',
      '/chat',
      '/chat/',
      '/CHAT/some-thread',
      '/howitworks',
      '/HowItWorks',
      '/account',
      '/privacy-policy?from=chat',
      '/terms-of-service',
      '/verify-email?token=x',
      '/reset-password',
    ])
      expect((await app.request(path)).status, path).toBe(200)
  })

  it('never lets a shared page be stored, known or revoked', async () => {
    const known = await app.request('/share/known')
    expect(known.status).toBe(200)
    expect(known.headers.get('cache-control')).toBe('no-store')
    const gone = await app.request('/share/revoked')
    expect(gone.status).toBe(404)
    expect(gone.headers.get('cache-control')).toBe('no-store')
  })
})
