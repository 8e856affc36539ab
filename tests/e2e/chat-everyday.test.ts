// What people do every day that the spec's paths do not: leave the chat while a reply is written
// and come back, turn a tablet or resize the window mid-sentence, sign out on a shared computer,
// keep typing while a send fails, open another conversation before an answer lands.
import { describe, expect, it } from 'vitest'
import { readManifest } from '#server/lib/route-preloads.ts'
import { clientBuildDir } from '../../scripts/bundle-size.mjs'
import { ComposerControls } from '../pages/composer.ts'
import { ThreadList } from '../pages/thread-list.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'
import { holdNextRequest } from './support/held-request.ts'

const h = chatHarnessForFile({ emailPrefix: 'everyday' })

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const desktop = { viewport: { width: 1280, height: 800 } }
/** The end of every slow reply of the stand-in. */
const SLOW_END = 'while it is arriving.'

describe('everyday use', () => {
  it('comes back from another page to the reply it left, followed to its end', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    await chat.send('before')
    await chat.waitForReply('before', 'Echo: before')
    await chat.send('leave [[scenario:slow]]')
    await chat.reply('leave').filter({ hasText: 'Echo:' }).waitFor()

    await chat.openUserMenuItem('Account')
    await page.getByRole('link', { name: 'Back to Chat' }).click()
    // The exchange sent before leaving is there, still being written, and then whole.
    await chat.exchange('leave').waitFor()
    await chat.waitForReply('leave', SLOW_END)
    await chat.waitForReply('before', 'Echo: before')
    expect(await chat.exchanges().count()).toBe(2)
    expect(unexpectedErrors()).toEqual([])
  })

  it("fetches the reply stream's reader (and zod) while the first message is typed, not with the chat", async () => {
    // The chunk the build made of the stream reader (decision 044), by the build's manifest.
    const manifest = readManifest(clientBuildDir)
    if (!manifest) throw new Error('the build wrote no manifest')
    const reader = manifest['features/chat/lib/sse-lines.ts']?.file
    if (!reader) throw new Error('the build has no chunk for the stream reader')
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    const fetched = () =>
      page.evaluate(
        (file) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(`/${file}`)),
        reader,
      )
    await chat.composer().waitFor()
    expect(await fetched()).toBe(false)
    const asked = page.waitForRequest((r) => r.url().endsWith(`/${reader}`))
    await chat.composer().fill('Typed, not sent yet')
    await asked
    await chat.composer().press('Enter')
    await chat.waitForReply('Typed, not sent yet', 'Echo: Typed, not sent yet')
    expect(unexpectedErrors()).toEqual([])
  })

  it('a reader who scrolled up stays there when the reply ends; one at the bottom follows it', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 1280, height: 600 } })
    const long = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n\n')
    h.standIn.setChunkDelayMs(150)
    await chat.send(`${long}\nread me [[scenario:slow]]`)
    await chat.reply('read me').filter({ hasText: 'Echo:' }).waitFor()
    const view = page.getByTestId('conversation')
    const top = () => view.evaluate((el) => el.scrollTop)
    const atBottom = () =>
      view.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 4 && el.scrollTop > 0)
    // Long enough to read by scrolling.
    expect(await view.evaluate((el) => el.scrollHeight > 2 * el.clientHeight)).toBe(true)
    // The send's own smooth scroll to its exchange has ended: a script's scroll does not stop that
    // animation as a reader's wheel or finger does, and it would carry the view back down.
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="conversation"]')
      return el && el.scrollHeight - el.scrollTop - el.clientHeight < 4
    })
    await view.evaluate((el) => {
      el.scrollTop = 0
    })
    await chat.waitForReply('read me', 'history: 1 messages')
    // The spec's scroll comes 100 ms after the end, then animates: still at the top well after.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 500)))
    expect(await top()).toBe(0)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    expect(await top()).toBe(0)

    // A send goes to its exchange; its reply, ending with the reader at the bottom, is followed.
    await chat.send(`${long}\nfollow me`)
    await chat.waitForReply('follow me', 'history: 3 messages')
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="conversation"]')
      return el && el.scrollHeight - el.scrollTop - el.clientHeight < 4
    })
    expect(await atBottom()).toBe(true)
    expect(unexpectedErrors()).toEqual([])
  })

  it('a failed refresh keeps the thread list and the exchanges on screen, with a retry', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    const threads = new ThreadList(page)
    await chat.send('kept on screen')
    await chat.waitForReply('kept on screen', 'Echo: kept on screen')
    const row = threads.selected()
    await row.waitFor()
    // From now on every load fails, among them the refetches after a reply cut short.
    const unavailable = (route: import('playwright-core').Route) =>
      route.request().method() === 'GET'
        ? route.fulfill({ status: 503, body: 'unavailable' })
        : route.continue()
    await page.route('**/api/threads*', unavailable)
    await page.route('**/api/messages*', unavailable)
    await chat.send('[[scenario:error-mid-stream]] cut short')
    await chat.toast('Error sending message').waitFor()
    await page.getByText(/Couldn't refresh|Failed to fetch threads/).waitFor()
    await page.getByText(/Couldn't load older messages|Failed to fetch messages/).waitFor()
    expect(await page.getByText('Failed to fetch threads').count()).toBe(0)
    expect(await page.getByText('Failed to fetch messages').count()).toBe(0)
    expect(await row.isVisible()).toBe(true)
    expect(await chat.reply('kept on screen').isVisible()).toBe(true)

    await page.unroute('**/api/threads*')
    await page.unroute('**/api/messages*')
    await threads.root().getByRole('button', { name: 'Retry' }).click()
    await page.getByText("Couldn't refresh").waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Retry' }).click()
    await page.getByText("Couldn't load older messages").waitFor({ state: 'detached' })
    expect(unexpectedErrors([/status of 503/])).toEqual([])
  })

  it('keeps what is being written through a change of layout and a visit to another page', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    const threads = new ThreadList(page)
    await threads.root().waitFor()
    await chat.composer().fill('half a thought')
    // Below 1024 px the panels give way to the phone's column, and back.
    await page.setViewportSize({ width: 900, height: 800 })
    await threads.root().waitFor({ state: 'detached' })
    expect(await chat.composer().inputValue()).toBe('half a thought')
    await page.setViewportSize({ width: 1280, height: 800 })
    await threads.root().waitFor()
    expect(await chat.composer().inputValue()).toBe('half a thought')

    await chat.openUserMenuItem('Account')
    await page.getByRole('link', { name: 'Back to Chat' }).click()
    await chat.composer().waitFor()
    expect(await chat.composer().inputValue()).toBe('half a thought')
    expect(unexpectedErrors()).toEqual([])
  })

  it('signing out forgets the text and the file chosen, for whoever uses the computer next', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 390, height: 844 } })
    const composer = new ComposerControls(page)
    await composer.upload('Upload image', 'image.png')
    await composer.chip().waitFor()
    await chat.composer().fill('my private note')
    await chat.signOut()
    await composer.chip().waitFor({ state: 'detached' })
    expect(await chat.composer().inputValue()).toBe('')
    expect(unexpectedErrors()).toEqual([])
  })

  it('a failed send gives its text back without losing what was typed meanwhile', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    // The first attempt is answered only once the person has started the next message.
    const attempt = await holdNextRequest(page, (url) => url.pathname === '/api/messages', 'POST')
    try {
      await chat.send('[[scenario:upstream-error]] first thought')
      await attempt.request
      await chat.composer().fill('second thought')
    } finally {
      await attempt.release()
    }
    await chat.toast('Error sending message').waitFor()
    expect(await chat.composer().inputValue()).toBe(
      '[[scenario:upstream-error]] first thought\n\nsecond thought',
    )
    expect(await chat.exchanges().count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it('a send refused as signed out turns the page to a visitor, keeping the text', async () => {
    const { page, context, chat, unexpectedErrors } = await h.signedInChat(desktop)
    // Default's messages have loaded (a load refused after the cookie goes would turn the page first).
    await page.getByRole('heading', { name: 'Loris is ready to help' }).waitFor()
    // The session ended elsewhere (signed out in another tab) within the 30 s the user is fresh.
    await context.clearCookies()
    await chat.send('still here after the session ended')
    await chat.signInButton().waitFor()
    expect(await chat.composer().inputValue()).toBe('still here after the session ended')
    expect(await page.getByRole('button', { name: 'User menu' }).count()).toBe(0)
    expect(unexpectedErrors([/status of 401/])).toEqual([])
  })

  it('a reply cut off part-way stays as stored, and its text is not offered to send twice', async () => {
    const { chat, unexpectedErrors } = await h.signedInChat(desktop)
    await chat.send('[[scenario:error-mid-stream]] cut short')
    await chat.toast('Error sending message').waitFor()
    await chat.waitForReply('cut short', 'Echo:')
    expect(await chat.composer().inputValue()).toBe('')
    expect(unexpectedErrors()).toEqual([])
  })

  it('a New thread opened while the last one is written stays new and empty', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    const threads = new ThreadList(page)
    await threads.newThread()
    await page.waitForURL(/\/chat\/new$/)
    await chat.send('first words [[scenario:slow]]')
    await page.waitForURL(new RegExp(`/chat/${UUID}$`))
    const created = new URL(page.url()).pathname.split('/').pop()
    await chat.reply('first words').filter({ hasText: 'Echo:' }).waitFor()

    await threads.newThread()
    await page.waitForURL(/\/chat\/new$/)
    expect(await page.getByTestId('conversation-title').textContent()).toBe('New conversation')
    expect(await chat.exchanges().count()).toBe(0)
    // The reply ends where it was sent; the person stays where they went.
    await page.waitForFunction(async (threadId) => {
      const res = await fetch(`/api/messages?threadId=${threadId}&limit=50`, { credentials: 'include' })
      const body = (await res.json()) as { items: { status: string }[] }
      return body.items.length === 1 && body.items[0]?.status === 'complete'
    }, created)
    await chat.composer().fill('a new subject')
    expect(new URL(page.url()).pathname).toBe('/chat/new')
    expect(await chat.exchanges().count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it("a version switch answered after another thread was opened leaves that thread's messages alone", async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    const threads = new ThreadList(page)
    await chat.send('alpha')
    await chat.waitForReply('alpha', 'Echo: alpha')
    await chat.editMessage('alpha', 'alpha two')
    await chat.waitForReply('alpha two', 'Echo: alpha two')
    const first = (await threads.selected().textContent()) ?? ''

    await threads.newThread()
    await chat.send('bravo')
    await chat.waitForReply('bravo', 'Echo: bravo')
    const second = (await threads.selected().textContent()) ?? ''
    await threads.open(first)
    await chat.waitForReply('alpha two')

    const regenerate = chat.replyFooter('bravo').getByRole('button', { name: 'Regenerate' })
    const switched = await holdNextRequest(page, (url) => url.pathname.endsWith('/select'), 'POST')
    try {
      await chat.replyFooter('alpha two').getByRole('button', { name: 'Previous version' }).click()
      await switched.request
      await threads.open(second)
      await chat.waitForReply('bravo', 'Echo: bravo')
      // Nothing is sent or revised while a switch is on its way: its answer rewrites a branch.
      expect(await regenerate.isDisabled()).toBe(true)
    } finally {
      await switched.release()
    }
    // The answer has landed once the actions are back; it belongs to the first thread.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('button[aria-label="Regenerate"]')].every(
        (b) => !b.hasAttribute('disabled'),
      ),
    )
    expect(await chat.exchange('alpha').count()).toBe(0)
    expect(await chat.exchanges().count()).toBe(1)
    await threads.open(first)
    await chat.waitForReply(/^alpha$/, 'Echo: alpha')
    expect(await chat.versionText(/^alpha$/)).toBe('1/2')
    expect(unexpectedErrors()).toEqual([])
  })
})
