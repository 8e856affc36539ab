// One browser, several people (a shared computer): what one person had in a tab never shows to
// the next one signed in there, whether the change happened in this tab or in another.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ThreadList } from '../pages/thread-list.ts'
import { password, uniqueEmail } from './support/accounts.ts'
import { type ChatHarness, startChatHarness } from './support/chat-harness.ts'
import { holdNextRequest } from './support/held-request.ts'

let h: ChatHarness

beforeAll(async () => {
  h = await startChatHarness({ emailPrefix: 'shared' })
})
afterAll(() => h?.close())

/**
 * The person comes back to the tab `minutes` after the page opened: who is signed in is loaded
 * again (30 s). A second return needs a later time than the first.
 */
async function comeBackLater(page: Page, minutes = 1) {
  await page.clock.setSystemTime(Date.now() + minutes * 60_000)
  await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')))
}

/** What another tab of the same browser does through the API: the page's cookies change too. */
async function elsewhere(page: Page, path: string, data?: object) {
  const res = await page.request.post(`${h.server.url}${path}`, { headers: { origin: h.server.url }, data })
  expect(res.ok(), `${path} answered ${res.status()}`).toBe(true)
}

describe('someone else signs in on the same browser', () => {
  it("a tab come back to shows the new person's threads, not the last one's", async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat()
    const threads = new ThreadList(page)
    await threads.newThread()
    await chat.send('Plans for my surprise party')
    await chat.waitForReply('Plans for my surprise party')
    await threads.selected().filter({ hasText: 'Plans for my surprise party' }).waitFor()
    await chat.composer().fill('a note half written')

    // Another tab: A signs out, B signs up.
    await elsewhere(page, '/api/logout')
    const emailB = uniqueEmail('shared-b')
    await elsewhere(page, '/api/register', { email: emailB, password })
    const listOfB = (await (await page.request.get(`${h.server.url}/api/threads`)).json()) as {
      id: string
      isDefault: boolean
    }[]
    const defaultOfB = listOfB.find((t) => t.isDefault)
    expect(defaultOfB).toBeTruthy()

    await comeBackLater(page)
    await chat.userMenuButton().click()
    await page.getByRole('menu').getByText(emailB).waitFor()
    await page.keyboard.press('Escape')
    // B's own Default is shown, and nothing of A's is left on screen.
    await page.waitForURL(`${h.server.url}/chat/${defaultOfB?.id}`)
    await threads.selected().filter({ hasText: 'Default' }).waitFor()
    expect(await threads.thread('Plans for my surprise party').count()).toBe(0)
    expect(await chat.exchange('Plans for my surprise party').count()).toBe(0)
    expect(await chat.composer().inputValue()).toBe('')
    expect(unexpectedErrors()).toEqual([])
  })
})

describe("the person's session ends, then someone else signs in", () => {
  it("the tab lets go of the last person's thread, and the next one starts at their own Default", async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat()
    const threads = new ThreadList(page)
    await threads.newThread()
    await chat.send('My private diary')
    await chat.waitForReply('My private diary')
    await threads.selected().filter({ hasText: 'My private diary' }).waitFor()

    // A signs out in another tab; this one notices and shows the visitor's chat, its address no
    // longer naming A's thread.
    await elsewhere(page, '/api/logout')
    await comeBackLater(page, 1)
    await chat.signInButton().waitFor()
    await page.waitForURL(`${h.server.url}/chat`)

    // B signs up in another tab and this one is come back to: B's Default, and no word of A's
    // thread (it was asked for with B's session and told as deleted).
    const emailB = uniqueEmail('shared-c')
    await elsewhere(page, '/api/register', { email: emailB, password })
    const asked: string[] = []
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/messages') asked.push(r.url())
    })
    await comeBackLater(page, 2)
    await chat.userMenuButton().waitFor()
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/)
    await threads.selected().filter({ hasText: 'Default' }).waitFor()
    const defaultOfB = new URL(page.url()).pathname.split('/').at(-1)
    expect(asked.every((url) => new URL(url).searchParams.get('threadId') === defaultOfB)).toBe(true)
    expect(await threads.thread('My private diary').count()).toBe(0)
    expect(await chat.toast('Thread no longer exists').count()).toBe(0)
    // Only the visitor's reads of A's things were refused (the list, while A was signed out).
    expect(unexpectedErrors([/status of 401/])).toEqual([])
  })
})

describe('the person signs out', () => {
  it('a download of their data still on its way is dropped, not saved to Downloads', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat()
    await page.goto(`${h.server.url}/account?tab=actions`)
    const exported = await holdNextRequest(page, (url) => url.pathname === '/api/export')
    await page.getByRole('button', { name: 'Download my data' }).click()
    const asked = await exported.request
    const saved = page.waitForEvent('download', { timeout: 20_000 }).then(() => 'saved' as const)
    const dropped = page
      .waitForEvent('requestfailed', { predicate: (r) => r === asked, timeout: 20_000 })
      .then(() => 'dropped' as const)
    saved.catch(() => undefined)
    dropped.catch(() => undefined)

    await page.getByRole('button', { name: 'Sign Out' }).click()
    await chat.signInButton().waitFor()
    await exported.release()
    // Either the page gave the request up, or the zip arrived and was saved.
    expect(await Promise.race([saved, dropped])).toBe('dropped')
    expect(await chat.toast('Error').count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })
})
