// Each thread has its own address: /chat/:threadId, case-insensitive, kept through
// reload, back and forward; a new thread is in the address and highlighted while its first reply
// is written, and a reload then stays in it.
import { describe, expect, it } from 'vitest'
import { THREADS_PAGE_SIZE } from '#contract/page-sizes.ts'
import { ThreadList } from '../pages/thread-list.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'
import { chatgptConversation, importConversations } from './support/chatgpt-export.ts'

const h = chatHarnessForFile({ emailPrefix: 'urls' })

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const threadIdOf = (url: string) => new RegExp(`/chat/(${UUID})$`).exec(new URL(url).pathname)?.[1] ?? null

describe('thread addresses', () => {
  it('gives each thread its address; reload, back and forward keep the thread', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 1440, height: 900 } })
    const threads = new ThreadList(page)
    // The entry /chat shows Default under its own address.
    await page.waitForURL(new RegExp(`/chat/${UUID}$`))
    const defaultUrl = page.url()
    await chat.send('in default')
    await chat.waitForReply('in default', 'Echo: in default')

    await threads.newThread()
    await page.waitForURL(/\/chat\/new$/)
    await chat.send('A new thread [[scenario:slow]]')
    // While its first reply is being written the thread has its address and is highlighted.
    await page.waitForURL(new RegExp(`/chat/${UUID}$`))
    const newUrl = page.url()
    expect(newUrl).not.toBe(defaultUrl)
    await threads.selected().filter({ hasText: 'A new thread' }).waitFor()
    await chat.reply('A new thread').filter({ hasText: 'Echo:' }).waitFor()
    await page.reload()
    expect(page.url()).toBe(newUrl)
    await chat.waitForReply('A new thread', 'while it is arriving.')
    expect(await threads.selected().textContent()).toContain('A new thread')

    await page.goBack()
    await page.waitForURL(defaultUrl)
    await chat.waitForReply('in default')
    expect(await chat.exchange('A new thread').count()).toBe(0)
    await page.goForward()
    await page.waitForURL(newUrl)
    await chat.waitForReply('A new thread')
    expect(await threads.selected().textContent()).toContain('A new thread')

    // Picking a thread in the list changes the address too.
    await threads.open('Default')
    await page.waitForURL(defaultUrl)
    expect(unexpectedErrors()).toEqual([])
  })

  it('matches the address case-insensitively and sends an unknown thread to Default', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat()
    await page.waitForURL(new RegExp(`/chat/${UUID}$`))
    const defaultId = threadIdOf(page.url())
    await chat.send('first words')
    await chat.waitForReply('first words')
    await chat.send('second words')
    await chat.waitForReply('second words')
    const res = await page.request.post(`${h.server.url}/api/threads/create-from-message`, {
      data: { messageId: await latestMessageId(page, h.server.url, defaultId) },
    })
    expect(res.status()).toBe(201)
    const { id } = (await res.json()) as { id: string }

    await page.goto(`${h.server.url}/CHAT/${id.toUpperCase()}`)
    await chat.waitForReply('second words')
    expect(await chat.exchange('first words').count()).toBe(0)
    expect(await page.title()).toBe('Chat | Loris')

    await page.goto(`${h.server.url}/chat/${crypto.randomUUID()}`)
    await page.waitForURL(`${h.server.url}/chat/${defaultId}`)
    await chat.waitForReply('first words')
    // Replaced, not pushed: Back does not return to the unknown address.
    await page.goBack()
    await page.waitForURL(new RegExp(`/CHAT/${id.toUpperCase()}$`, 'i'))
    expect(unexpectedErrors([/404|Not Found|Failed to load resource/])).toEqual([])
  })
})

describe('a phone with more threads than one page', () => {
  /**
   * A person on a phone with more threads than one page: the thread list is a closed drawer, so
   * it stays at its first page, and the list alone cannot say whether an address is theirs.
   */
  async function phoneWithManyThreads() {
    const tab = await h.signedInChat({ viewport: { width: 390, height: 844 } })
    const { page, chat } = tab
    await page.waitForURL(new RegExp(`/chat/${UUID}$`))
    const defaultId = threadIdOf(page.url())
    const now = Math.floor(Date.now() / 1000)
    const imported = await importConversations(
      page,
      Array.from({ length: THREADS_PAGE_SIZE + 5 }, (_, i) =>
        chatgptConversation(`Old talk ${i}`, now - 600 - i),
      ),
    )
    expect(imported).toMatchObject({ threadsImported: THREADS_PAGE_SIZE + 5 })
    const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/threads')
    await page.reload()
    expect((await (await listed).json()) as { nextCursor: string | null }).toMatchObject({
      nextCursor: expect.any(String),
    })
    await page.waitForURL(`${h.server.url}/chat/${defaultId}`)
    await chat.composer().waitFor()
    return { ...tab, defaultId }
  }

  /** The address changes without a load, as Back and Forward change it. */
  const goWithinTheApp = (page: import('playwright-core').Page, path: string) =>
    page.evaluate((to) => {
      history.pushState(null, '', to)
      window.dispatchEvent(new PopStateEvent('popstate'))
    }, path)

  it("sends another person's thread to Default without a word of a deletion", async () => {
    const other = await h.signedInChat()
    await other.page.waitForURL(new RegExp(`/chat/${UUID}$`))
    const notTheirs = threadIdOf(other.page.url())
    await other.page.close()
    const { page, chat, unexpectedErrors, defaultId } = await phoneWithManyThreads()

    // Reached within the open chat, and opened as a page: the thread is asked for (404), then
    // the chat goes to Default.
    const open = [
      () => goWithinTheApp(page, `/chat/${notTheirs}`),
      () => page.goto(`${h.server.url}/chat/${notTheirs}`),
    ]
    for (const go of open) {
      const answered = page.waitForResponse((r) => r.url().includes(`threadId=${notTheirs}`))
      await go()
      expect((await answered).status()).toBe(404)
      await page.waitForURL(`${h.server.url}/chat/${defaultId}`)
      await chat.composer().waitFor()
      expect(await chat.toast('Thread no longer exists').count()).toBe(0)
    }
    expect(unexpectedErrors([/status of 404/])).toEqual([])
  })

  it('an address changed while the chat is still drawing settles on it', async () => {
    const { page, chat, unexpectedErrors } = await phoneWithManyThreads()
    const older = (await (await page.request.get(`${h.server.url}/api/threads?limit=100`)).json()) as {
      items: { id: string; title: string }[]
    }
    const pastFirstPage = older.items.find((t) => t.title === `Old talk ${THREADS_PAGE_SIZE + 4}`)?.id
    expect(pastFirstPage).toBeTruthy()
    let navigations = 0
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations++
    })
    // Back pressed at moments around the chat's first drawing (which React does in slices), to a
    // thread past the list's first page: the address then names one thread while the chat has
    // chosen another. Before, the two could chase each other without end (React's update-depth
    // error, a stuck page), or the automatic pick put Default back over the address.
    for (const delay of [0, 10, 20, 25, 30, 40]) {
      const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/threads')
      await page.reload({ waitUntil: 'commit' })
      await listed
      await new Promise((resolve) => setTimeout(resolve, delay))
      navigations = 0
      await goWithinTheApp(page, `/chat/${pastFirstPage}`)
      await page.waitForURL(`${h.server.url}/chat/${pastFirstPage}`)
      await chat.waitForReply(`Old talk ${THREADS_PAGE_SIZE + 4}?`)
      expect(page.url(), `Back ${delay} ms after the list came`).toBe(`${h.server.url}/chat/${pastFirstPage}`)
      expect(navigations, `Back ${delay} ms after the list came`).toBeLessThanOrEqual(2)
    }
    expect(unexpectedErrors()).toEqual([])
  })
})

async function latestMessageId(page: import('playwright-core').Page, base: string, threadId: string | null) {
  const res = await page.request.get(`${base}/api/messages?threadId=${threadId}`)
  const newest = (await res.json()) as { items: { id: string }[] }
  return newest.items.at(-1)?.id
}
