// Each thread has its own address (issue 13): /chat/:threadId, case-insensitive, kept through
// reload, back and forward; a new thread is in the address and highlighted while its first reply
// is written, and a reload then stays in it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ThreadList } from '../pages/thread-list.ts'
import { type ChatHarness, startChatHarness } from './support/chat-harness.ts'

let h: ChatHarness
beforeAll(async () => {
  h = await startChatHarness({ emailPrefix: 'urls' })
})
afterAll(() => h?.close())
beforeEach(() => h.standIn.reset())

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

async function latestMessageId(page: import('playwright-core').Page, base: string, threadId: string | null) {
  const res = await page.request.get(`${base}/api/messages?threadId=${threadId}`)
  const list = (await res.json()) as { id: string }[]
  return list.at(-1)?.id
}
