import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../tests/helpers/test-app.ts'
import {
  ACCOUNT_ROUTE_SOURCES,
  accountHtml,
  type ChatVisit,
  chatHtml,
  messagesUrl,
  staticChunks,
  type ViteManifest,
} from './route-preloads.ts'

// The shapes Vite writes (build.manifest): source keys, `_name.js` keys for shared chunks.
const manifest: ViteManifest = {
  'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_jsx-B.js'] },
  '_jsx-B.js': { file: 'assets/jsx-B.js' },
  'app/routes/chat/chat-page.tsx': {
    file: 'assets/chat-page-C.js',
    imports: ['index.html', '_jsx-B.js', '_query-D.js'],
  },
  '_query-D.js': { file: 'assets/query-D.js', imports: ['_jsx-B.js'] },
  'app/page-shell.tsx': { file: 'assets/page-shell-E.js', imports: ['_query-D.js', 'index.html'] },
  'app/account-route.tsx': { file: 'assets/account-route-G.js', imports: ['_query-D.js', 'index.html'] },
  'app/routes/account/account-page.tsx': { file: 'assets/account-page-H.js', imports: ['_jsx-B.js'] },
  // Lazy: reachable only through dynamicImports, never preloaded.
  'features/chat/components/conversation.tsx': { file: 'assets/conversation-F.js' },
}
const sources = ['app/routes/chat/chat-page.tsx', 'app/page-shell.tsx']
const shell =
  '<html><head><script type="module" crossorigin src="/assets/index-A.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/jsx-B.js"></head><body></body></html>'

describe('staticChunks', () => {
  it("lists a route's chunks and their static imports once, without the entry or lazy chunks", () => {
    expect(staticChunks(manifest, sources).sort()).toEqual([
      'assets/chat-page-C.js',
      'assets/jsx-B.js',
      'assets/page-shell-E.js',
      'assets/query-D.js',
    ])
  })

  it('fails loudly when the route is missing from the build', () => {
    expect(() => staticChunks(manifest, ['features/chat/renamed.tsx'])).toThrow(/renamed/)
  })
})

describe('chatHtml', () => {
  const chunks = staticChunks(manifest, sources)
  const preloads = (html: string) =>
    [...html.matchAll(/<link rel="(?:modulepre|pre)load"[^>]*>/g)].map((m) => m[0])

  it("preloads a visitor's code, who-is-signed-in, the configuration and the poster per orientation", () => {
    const html = chatHtml(shell, chunks, { signedIn: false, threadId: null })
    const links = preloads(html)
    // index.html's own preload is not repeated.
    expect(links.filter((l) => l.includes('jsx-B.js'))).toHaveLength(1)
    for (const file of ['chat-page-C.js', 'query-D.js', 'page-shell-E.js'])
      expect(links.some((l) => l.includes(`/assets/${file}`) && l.includes('rel="modulepreload"'))).toBe(true)
    expect(html).not.toContain('conversation-F.js')
    expect(links).toContain(
      '<link rel="preload" as="image" href="/media/chat-bg-portrait-poster.webp" media="(max-width: 767px)" fetchpriority="high">',
    )
    expect(links).toContain(
      '<link rel="preload" as="image" href="/media/chat-bg-wide-poster.webp" media="(min-width: 768px)" fetchpriority="high">',
    )
    const data = links.filter((l) => l.includes('as="fetch"'))
    expect(data.map((l) => /href="([^"]+)"/.exec(l)?.[1])).toEqual(['/api/session', '/api/config'])
    // Credentials as the client's fetch sends them, or the browser would not reuse the answer.
    for (const l of data) expect(l).toContain('crossorigin="use-credentials"')
  })

  it("preloads a signed-in person's threads and the shown thread's messages, not the poster", () => {
    const visit: ChatVisit = { signedIn: true, threadId: '5e288939-9e22-44cb-9456-c7ca92874dc9' }
    const html = chatHtml(shell, chunks, visit)
    expect(html).not.toContain('poster')
    const data = preloads(html)
      .filter((l) => l.includes('as="fetch"'))
      .map((l) => /href="([^"]+)"/.exec(l)?.[1])
    expect(data).toEqual([
      '/api/session',
      '/api/config',
      '/api/threads?limit=50',
      '/api/messages?threadId=5e288939-9e22-44cb-9456-c7ca92874dc9&limit=30',
    ])
    // Visits do not leak into each other (the lists are built per page).
    expect(chatHtml(shell, chunks, { signedIn: true, threadId: null })).not.toContain('/api/messages')
  })
})

describe('accountHtml', () => {
  const chunks = staticChunks(manifest, ACCOUNT_ROUTE_SOURCES)

  it("preloads a signed-in person's settings code, who is signed in and the configuration", () => {
    const html = accountHtml(shell, chunks, true)
    for (const file of ['account-route-G.js', 'account-page-H.js', 'page-shell-E.js', 'query-D.js'])
      expect(html).toContain(
        `<link rel="modulepreload" crossorigin href="/assets/${file}" fetchpriority="low">`,
      )
    expect(html).toContain(
      '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/session">',
    )
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/config">')
    expect(html).not.toContain('/api/threads')
    expect(html.match(/jsx-B\.js/g)).toHaveLength(1)
  })

  it("leaves a visitor's page (the 404 screen) as it is", () => {
    expect(accountHtml(shell, chunks, false)).toBe(shell)
  })
})

describe('the served chat HTML', () => {
  let t: TestApp
  let app: ReturnType<typeof createApp>
  const clientDir = mkdtempSync(path.join(tmpdir(), 'loris-preloads-'))

  beforeAll(async () => {
    mkdirSync(path.join(clientDir, '.vite'))
    writeFileSync(path.join(clientDir, 'index.html'), shell)
    writeFileSync(path.join(clientDir, '.vite', 'manifest.json'), JSON.stringify(manifest))
    t = await createTestApp()
    app = createApp(t.deps, { clientDir })
  })
  afterAll(async () => {
    await t.close()
    rmSync(clientDir, { recursive: true, force: true })
  })

  const get = (p: string, cookie?: string) =>
    app.request(`${TEST_ORIGIN}${p}`, { headers: cookie ? { cookie } : {} })

  it('names the chat code for /chat only, varies by cookie, and keeps the manifest private', async () => {
    const chat = await get('/chat')
    expect(chat.status).toBe(200)
    expect(chat.headers.get('vary')).toContain('Cookie')
    expect(await chat.text()).toContain('href="/assets/chat-page-C.js"')
    expect(await (await get('/')).text()).not.toContain('chat-page-C.js')
    expect(await (await get('/howitworks')).text()).not.toContain('chat-page-C.js')
    expect((await get('/.vite/manifest.json')).status).toBe(404)
  })

  it('names the settings code for a signed-in /account, not for a visitor', async () => {
    const { cookie } = await t.signUp('account-preloads@example.com')
    const account = await get('/Account/', cookie)
    expect(account.headers.get('vary')).toContain('Cookie')
    expect(await account.text()).toContain('href="/assets/account-page-H.js"')
    expect(await (await get('/account')).text()).not.toContain('account-page-H.js')
    expect(await (await get('/chat', cookie)).text()).not.toContain('account-page-H.js')
  })

  it("preloads the messages of the thread the chat will show: the address's, else Default", async () => {
    const { cookie } = await t.signUp('preloads@example.com')
    const page = (await (await t.request('/api/threads?limit=50', { cookie })).json()) as {
      items: { id: string; isDefault: boolean }[]
    }
    const defaultId = page.items.find((th) => th.isDefault)?.id as string
    const chat = await (await get('/chat', cookie)).text()
    expect(chat).toContain(`href="${messagesUrl(defaultId)}"`)
    expect(chat).not.toContain('poster')

    const other = '0f4f2c8e-1d2a-4a8e-9a54-2f0c6f3b7d11'
    expect(await (await get(`/chat/${other.toUpperCase()}`, cookie)).text()).toContain(messagesUrl(other))
    expect(await (await get('/chat/new', cookie)).text()).not.toContain('/api/messages')
    // A stale cookie is a visitor's page.
    expect(await (await get('/chat', 'loris_session=stale')).text()).toContain('chat-bg-portrait-poster')
  })
})
