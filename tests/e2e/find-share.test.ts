// Find, keep and share through the real server: message search opening a thread at
// the exchange, a shared link read by a visitor and continued by another user, revoked from
// Settings, or continued after signing in with Google (the OpenID Connect stand-in); a thread's
// export, Download my data, and Import conversations.
import { readFileSync } from 'node:fs'
import { strFromU8, unzipSync } from 'fflate'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lorisMessage, lorisThreadExport } from '../../src/server/features/import/loris-export-kit.ts'
import { AccountPage } from '../pages/account-page.ts'
import { ChatPage } from '../pages/chat-page.ts'
import { ThreadList } from '../pages/thread-list.ts'
import { googleEnv, type OidcStandIn, startOidcStandIn } from '../stand-ins/oidc.ts'
import { chatEvents, signUp } from './support/chat-api.ts'
import { type ChatHarness, startChatHarness } from './support/chat-harness.ts'

let h: ChatHarness
let google: OidcStandIn

beforeAll(async () => {
  google = await startOidcStandIn()
  h = await startChatHarness({
    emailPrefix: 'findshare',
    env: {
      ...googleEnv(google),
    },
  })
})
afterAll(async () => {
  await h?.close()
  await google?.close()
})

const NOT_FOUND = /status of 404/

async function signedIn(opts?: Parameters<ChatHarness['signedInChat']>[0]) {
  const tab = await h.signedInChat(opts)
  return { ...tab, threads: new ThreadList(tab.page), account: new AccountPage(tab.page, h.server.url) }
}

/** A link to a new person's Default thread holding one exchange, made through the API. */
async function sharedThroughApi(content: string): Promise<string> {
  const url = h.server.url
  const cookie = await signUp(url, 'sharer')
  const headers = { 'content-type': 'application/json', origin: url, cookie }
  const send = await fetch(`${url}/api/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content, isEcoMode: false, useOpenAI: false }),
  })
  const events = await chatEvents(send).until((e) => e.some((x) => x.done || x.error))
  expect(events.at(-1)).toMatchObject({ done: true })
  const share = await fetch(`${url}/api/threads/${events[0]?.threadId}/share`, {
    method: 'POST',
    headers,
    body: '{}',
  })
  expect(share.status).toBe(201)
  return ((await share.json()) as { url: string }).url
}

async function exchange(chat: Awaited<ReturnType<typeof signedIn>>['chat'], text: string) {
  await chat.send(text)
  await chat.waitForReply(text)
}

describe('search', () => {
  it('finds words inside messages, highlighted, and opens the thread at that exchange', async () => {
    const { page, chat, threads, unexpectedErrors } = await signedIn()
    await threads.newThread()
    await exchange(chat, 'Planting a kumquat orchard near the river')
    for (const text of ['Which soil suits citrus trees', 'How often should I water them'])
      await exchange(chat, text)
    await threads.newThread()
    await exchange(chat, 'Something else entirely')

    await threads.search('kumqu')
    const match = page.getByTestId('message-match').first()
    await match.waitFor()
    expect((await match.locator('mark').first().textContent())?.toLowerCase()).toBe('kumquat')
    expect(await match.textContent()).toContain('Planting a kumquat orchard near the river')
    await match.click()
    await threads.selected().filter({ hasText: 'Planting a kumquat orchard' }).waitFor()
    const focused = page.locator('[data-focused="true"]')
    await focused.filter({ hasText: 'Planting a kumquat orchard' }).waitFor()
    expect(await focused.isVisible()).toBe(true)
    expect(unexpectedErrors()).toEqual([])
  })

  it('forgets the matches of a deleted thread; one deleted elsewhere says so and lets the view go on', async () => {
    const { page, chat, threads, unexpectedErrors } = await signedIn({
      viewport: { width: 1280, height: 600 },
    })
    await threads.newThread()
    const long = Array.from({ length: 30 }, (_, i) => `row ${i + 1}`).join('\n\n')
    await exchange(chat, `${long}\nA long read`)
    const longTitle = (await threads.selected().textContent()) ?? ''
    const longId = new URL(page.url()).pathname.split('/').at(-1)
    await threads.newThread()
    await exchange(chat, 'A persimmon tree by the gate')
    const persimmon = (await threads.selected().textContent()) ?? ''
    await threads.newThread()
    await exchange(chat, 'A quince tree by the wall')
    const quinceId = new URL(page.url()).pathname.split('/').at(-1)
    await threads.newThread()

    const matches = page.getByTestId('message-match')
    await threads.search('persimmon')
    await matches.filter({ hasText: 'persimmon' }).first().waitFor()
    await threads.remove(persimmon)
    await matches.filter({ hasText: 'persimmon' }).first().waitFor({ state: 'detached' })

    // Deleted on another device after the search: the match answers that it is gone.
    await threads.search('quince')
    await matches.filter({ hasText: 'quince' }).first().waitFor()
    await page.evaluate(async (id) => {
      await fetch(`/api/threads/${id}`, { method: 'DELETE', credentials: 'include' })
    }, quinceId)
    await matches.filter({ hasText: 'quince' }).first().click()
    await chat.toast('That message no longer exists').waitFor()

    // Another thread opens and follows a send as usual, loading its messages once.
    let loads = 0
    page.on('request', (r) => {
      const url = new URL(r.url())
      if (url.pathname === '/api/messages' && url.searchParams.get('threadId') === longId) loads += 1
    })
    await threads.search('')
    await threads.open(longTitle)
    await chat.waitForReply('A long read')
    const view = page.getByTestId('conversation')
    expect(await view.evaluate((el) => el.scrollHeight > 2 * el.clientHeight)).toBe(true)
    await view.evaluate((el) => {
      el.scrollTop = 0
    })
    await chat.send('A new question')
    await chat.waitForReply('A new question', 'Echo: A new question')
    await page.waitForFunction(
      () => {
        const view = document.querySelector('[data-testid="conversation"]')?.getBoundingClientRect()
        const sent = [...document.querySelectorAll('[data-testid="user-message"]')]
          .find((el) => el.textContent?.includes('A new question'))
          ?.getBoundingClientRect()
        return view && sent && sent.top >= view.top && sent.bottom <= view.bottom
      },
      undefined,
      { timeout: 5000 },
    )
    expect(loads).toBeLessThanOrEqual(2)
    expect(unexpectedErrors([NOT_FOUND])).toEqual([])
  })
})

describe('share', () => {
  it('shares a snapshot anyone can read, another user can continue, and the owner can revoke', async () => {
    const owner = await signedIn()
    await owner.threads.newThread()
    await exchange(owner.chat, 'Tell me about slow lorises')
    await owner.threads
      .root()
      .getByRole('button', { name: 'More actions for Tell me about slow lorises' })
      .click()
    await owner.page.getByRole('menuitem', { name: 'Share' }).click()
    const dialog = owner.page.getByRole('dialog', { name: 'Share conversation' })
    await dialog.getByRole('button', { name: 'Create link' }).click()
    const url = await dialog.getByRole('textbox', { name: 'Link' }).inputValue()
    expect(url).toMatch(new RegExp(`^${h.server.url}/share/[A-Za-z0-9_-]{43}$`))
    await dialog.getByRole('button', { name: 'Done' }).click()
    await exchange(owner.chat, 'A later question that is not shared')

    // The shell carries the card and noindex before any script runs, and is never kept: the card
    // quotes the conversation, which a revoked link must not show.
    const shell = await fetch(url)
    expect(shell.headers.get('cache-control')).toBe('no-store')
    const html = await shell.text()
    expect(html).toContain('<meta property="og:title" content="Tell me about slow lorises | Shared on Loris"')
    expect(html).toContain('<meta name="robots" content="noindex" />')

    const visitor = await h.browser.newPage()
    await visitor.page.goto(url)
    await visitor.page.getByRole('heading', { name: 'Tell me about slow lorises' }).waitFor()
    await visitor.page.getByTestId('user-message').filter({ hasText: 'Tell me about slow lorises' }).waitFor()
    expect(await visitor.page.getByText('A later question that is not shared').count()).toBe(0)
    expect(await visitor.page.title()).toBe('Tell me about slow lorises | Shared on Loris')
    // The reply footer as in the chat (model, CO2), read-only: no edit, regenerate or versions.
    await visitor.page.getByTestId('reply-footer').getByTestId('reply-co2').waitFor()
    expect(await visitor.page.getByTestId('reply-model').count()).toBe(1)
    for (const name of ['Edit message', 'Regenerate', 'Start new thread from this message'])
      expect(await visitor.page.getByRole('button', { name }).count()).toBe(0)

    const reader = await signedIn()
    await reader.page.goto(url)
    await reader.page.getByRole('button', { name: 'Continue this conversation' }).click()
    // The copy's own address.
    await reader.page.waitForURL(new RegExp(`^${h.server.url}/chat/[0-9a-f-]{36}$`))
    await reader.threads.selected().filter({ hasText: 'Tell me about slow lorises' }).waitFor()
    await reader.chat.exchange('Tell me about slow lorises').waitFor()

    await owner.account.open()
    await owner.page.getByRole('tab', { name: 'Actions' }).click()
    await owner.page.getByTestId('shared-link').filter({ hasText: 'Tell me about slow lorises' }).waitFor()
    await owner.page.getByRole('button', { name: 'Revoke the link to Tell me about slow lorises' }).click()
    await owner.page.getByText('You have not shared any conversation.').waitFor()

    await visitor.page.reload()
    await visitor.page.getByRole('heading', { name: 'This link does not exist' }).waitFor()
    expect((await fetch(url)).status).toBe(404)
    for (const tab of [owner, visitor, reader]) expect(tab.unexpectedErrors([NOT_FOUND])).toEqual([])
  })
})

describe('share page loads', () => {
  it('says a load failed and tries again, instead of calling a working link revoked', async () => {
    const url = await sharedThroughApi('Is this link still alive')
    const visitor = await h.browser.newPage()
    const api = `${h.server.url}/api/shares/${url.split('/').at(-1)}`
    await visitor.page.route(api, (route) => route.fulfill({ status: 503, body: 'Service Unavailable' }))
    await visitor.page.goto(url)
    await visitor.page.getByRole('heading', { name: 'Could not load this conversation' }).waitFor()
    expect(await visitor.page.getByText('This link does not exist').count()).toBe(0)
    expect(await visitor.page.getByText('may have been revoked').count()).toBe(0)

    await visitor.page.unroute(api)
    await visitor.page.getByRole('button', { name: 'Try again' }).click()
    await visitor.page.getByTestId('user-message').filter({ hasText: 'Is this link still alive' }).waitFor()
    await visitor.page.getByRole('button', { name: 'Continue this conversation' }).waitFor()
    expect(visitor.unexpectedErrors([/status of 503/])).toEqual([])
  })

  it('still calls a link that was never made one that does not exist', async () => {
    const visitor = await h.browser.newPage()
    await visitor.page.goto(`${h.server.url}/share/${'x'.repeat(43)}`)
    await visitor.page.getByRole('heading', { name: 'This link does not exist' }).waitFor()
    expect(await visitor.page.getByRole('button', { name: 'Try again' }).count()).toBe(0)
    // A token the server could not have made (a link cut short when copied) answers 400.
    await visitor.page.goto(`${h.server.url}/share/cut-short`)
    await visitor.page.getByRole('heading', { name: 'This link does not exist' }).waitFor()
    expect(visitor.unexpectedErrors([NOT_FOUND, /status of 400/])).toEqual([])
  })
})

/** Counts the page's requests to continue a share (the copy must be made once). */
function countContinues(page: Page) {
  let count = 0
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/shares\/[^/]+\/continue$/.test(request.url())) count += 1
  })
  return () => count
}

describe('share and sign-in', () => {
  it('brings a visitor who signs in with Google back to the shared conversation and continues it without a second click', async () => {
    const url = await sharedThroughApi('Where do lorises sleep')
    google.setNextUser({
      sub: `sub-share-${Date.now()}`,
      email: `findshare-google-${Date.now()}@example.com`,
      email_verified: true,
    })
    const visitor = await h.browser.newPage()
    const chat = new ChatPage(visitor.page, h.server.url)
    const continues = countContinues(visitor.page)
    const returned = visitor.page.waitForResponse(
      (res) => new URL(res.url()).pathname === '/auth/google/callback',
    )
    await visitor.page.goto(url)
    await visitor.page.getByRole('button', { name: 'Continue this conversation' }).click()
    await chat.dialog().getByRole('button', { name: 'Continue with Google' }).click()

    // Back on the same share, signed in (decision 005), which goes on to the copy by itself.
    expect((await returned).headers().location).toBe(`${new URL(url).pathname}?auth=google`)
    await visitor.page.waitForURL(new RegExp(`^${h.server.url}/chat/[0-9a-f-]{36}$`))
    await chat.exchange('Where do lorises sleep').waitFor()
    expect(await chat.dialog().count()).toBe(0)
    expect(continues()).toBe(1)
    // Carried out once: nothing is left to continue the conversation again.
    expect(await visitor.page.evaluate(() => sessionStorage.getItem('pending-share-continue'))).toBeNull()
    expect(visitor.unexpectedErrors()).toEqual([])
  })

  it('continues the shared conversation without a second click after a password sign-in too', async () => {
    const url = await sharedThroughApi('Do lorises eat fruit')
    const email = `findshare-password-${crypto.randomUUID()}@example.com`
    const registered = await fetch(`${h.server.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: h.server.url },
      body: JSON.stringify({ email, password: 'a strong password' }),
    })
    expect(registered.status).toBe(201)
    const visitor = await h.browser.newPage()
    const chat = new ChatPage(visitor.page, h.server.url)
    const continues = countContinues(visitor.page)
    await visitor.page.goto(url)
    await visitor.page.getByRole('button', { name: 'Continue this conversation' }).click()
    await chat.fillCredentials('Sign in', email, 'a strong password')

    await visitor.page.waitForURL(new RegExp(`^${h.server.url}/chat/[0-9a-f-]{36}$`))
    await chat.exchange('Do lorises eat fruit').waitFor()
    expect(await chat.dialog().count()).toBe(0)
    expect(continues()).toBe(1)
    expect(visitor.unexpectedErrors()).toEqual([])
  })

  it('brings them back to it with the reason and the sign-in dialog when Google sign-in fails, and continues after signing up instead', async () => {
    const url = await sharedThroughApi('Do lorises hibernate')
    const visitor = await h.browser.newPage()
    const chat = new ChatPage(visitor.page, h.server.url)
    await visitor.page.goto(url)
    await visitor.page.getByRole('button', { name: 'Continue this conversation' }).click()
    google.setNextBehaviour('deny')
    await chat.dialog().getByRole('button', { name: 'Continue with Google' }).click()
    await chat.toast('Google sign-in was cancelled').waitFor()
    await chat.dialog().waitFor()
    expect(visitor.page.url()).toBe(url)
    await visitor.page.getByTestId('user-message').filter({ hasText: 'Do lorises hibernate' }).waitFor()

    // The click to continue still stands for the other way of signing in.
    await chat.fillCredentials(
      'Sign up',
      `findshare-after-google-${Date.now()}@example.com`,
      'a strong password',
    )
    await visitor.page.waitForURL(new RegExp(`^${h.server.url}/chat/[0-9a-f-]{36}$`))
    await chat.exchange('Do lorises hibernate').waitFor()
    expect(visitor.unexpectedErrors()).toEqual([])
  })
})

describe('export and import', () => {
  it('exports a thread, downloads all data, and imports a ChatGPT export once', async () => {
    const { page, chat, threads, account, unexpectedErrors } = await signedIn()
    await threads.newThread()
    await exchange(chat, 'Recipe for sourdough bread')

    await threads.root().getByRole('button', { name: 'More actions for Recipe for sourdough bread' }).click()
    const [threadFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export as Markdown' }).click(),
    ])
    expect(threadFile.suggestedFilename()).toBe('recipe-for-sourdough-bread.md')
    expect(readFileSync((await threadFile.path()) as string, 'utf8')).toContain('## You')

    await account.open('actions')
    const [zipFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ])
    expect(zipFile.suggestedFilename()).toMatch(/^loris-data-\d{4}-\d\d-\d\d\.zip$/)
    const files = unzipSync(new Uint8Array(readFileSync((await zipFile.path()) as string)))
    expect(Object.keys(files)).toContain('account.json')
    const md = Object.entries(files).find(([name]) => name.endsWith('recipe-for-sourdough-bread.md'))
    expect(md && strFromU8(md[1])).toContain('Recipe for sourdough bread')
    await page
      .getByRole('status')
      .filter({ hasText: /Downloaded loris-data-.*\.zip/ })
      .waitFor()

    const conversations = [
      {
        title: 'Imported from ChatGPT',
        conversation_id: 'e2e-conv',
        create_time: 1_700_000_000,
        current_node: 'a1',
        mapping: {
          u1: {
            id: 'u1',
            parent: null,
            children: ['a1'],
            message: {
              author: { role: 'user' },
              content: { parts: ['Hello from the past'] },
              create_time: 1_700_000_001,
            },
          },
          a1: {
            id: 'a1',
            parent: 'u1',
            children: [],
            message: {
              author: { role: 'assistant' },
              content: { parts: ['Hi there'] },
              create_time: 1_700_000_002,
              metadata: { model_slug: 'gpt-4o' },
            },
          },
        },
      },
    ]
    const file = {
      name: 'conversations.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(conversations)),
    }
    await page.getByLabel('Conversations file').setInputFiles(file)
    await page
      .getByTestId('import-report')
      .filter({ hasText: 'Imported 1 conversation with 1 message.' })
      .waitFor()
    await page.getByLabel('Conversations file').setInputFiles(file)
    await page
      .getByTestId('import-report')
      .filter({ hasText: 'Imported 0 conversations with 0 messages.' })
      .waitFor()
    expect(await page.getByTestId('import-report').textContent()).toContain('Skipped 1 conversation')

    await chat.open()
    await threads.open('Imported from ChatGPT')
    await chat.waitForReply('Hello from the past', 'Hi there')
    expect(unexpectedErrors()).toEqual([])
  })

  it("imports a Loris thread with its reply's sources, in its project", async () => {
    const { page, chat, threads, account, unexpectedErrors } = await signedIn()
    const at = '2025-05-01T20:00:00.000Z'
    const exported = lorisThreadExport(
      'Loris news',
      [
        lorisMessage(at, {
          content: 'Any news about lorises?',
          response: 'Twins were born at the zoo [1].',
          sources: [{ url: 'https://zoo.example/twins', title: 'Zoo welcomes loris twins' }],
        }),
      ],
      { at, thread: { project: { id: 'e2e-project', name: 'Primates' } } },
    )
    await account.open('actions')
    await page.getByLabel('Conversations file').setInputFiles({
      name: 'loris-news.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(exported)),
    })
    await page
      .getByTestId('import-report')
      .filter({ hasText: 'Imported 1 conversation with 1 message.' })
      .waitFor()
    expect(await page.getByTestId('import-report').textContent()).toContain('1 project restored')

    await chat.open()
    await threads.root().getByTestId('project-folder').filter({ hasText: 'Primates' }).waitFor()
    await threads.open('Loris news')
    const reply = chat.reply('Any news about lorises?')
    const source = reply.getByTestId('reply-source')
    await source.waitFor()
    expect((await source.innerText()).replace(/\s+/g, ' ').trim()).toBe(
      '[1] Zoo welcomes loris twins · zoo.example',
    )
    expect(await source.getByRole('link').getAttribute('href')).toBe('https://zoo.example/twins')
    expect(unexpectedErrors()).toEqual([])
  })
})
