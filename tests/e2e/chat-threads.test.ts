// Threads through the real server: new threads from a send and from a message, search,
// favorite, rename, delete, the mode following the thread, the drawer and the panel keys.
import { describe, expect, it } from 'vitest'
import { ThreadList } from '../pages/thread-list.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'
import { chatgptConversation } from './support/chatgpt-export.ts'
import { holdNextRequest } from './support/held-request.ts'

const h = chatHarnessForFile({ emailPrefix: 'threads', resetStandIn: false })

async function signedIn(viewport?: { width: number; height: number }) {
  const tab = await h.signedInChat({ viewport })
  return { ...tab, threads: new ThreadList(tab.page) }
}

describe('threads', () => {
  it('creates, finds, favorites, renames and deletes threads', async () => {
    const { page, chat, threads, unexpectedErrors } = await signedIn()
    await threads.selected().filter({ hasText: 'Default' }).waitFor()
    expect(await threads.root().getByRole('button', { name: 'More actions for Default' }).count()).toBe(0)

    await threads.newThread()
    await chat.send('Budget planning for the garden')
    await chat.waitForReply('Budget planning for the garden')
    await threads.selected().filter({ hasText: 'Budget planning for the garden' }).waitFor()

    await threads.newThread()
    await chat.chooseMode('ChatGPT')
    await chat.send('Trip to Lisbon')
    await chat.waitForReply('Trip to Lisbon')
    await threads.selected().filter({ hasText: 'Trip to Lisbon' }).waitFor()
    expect(await threads.sections()).toEqual(['Today'])

    // Selecting a thread takes its mode.
    await threads.open('Default')
    await page.getByRole('button', { name: 'Chat mode: Gemini' }).waitFor()
    expect(await chat.exchange('Trip to Lisbon').count()).toBe(0)
    await threads.open('Trip to Lisbon')
    await page.getByRole('button', { name: 'Chat mode: ChatGPT' }).waitFor()
    await chat.exchange('Trip to Lisbon').waitFor()

    await threads.search('LISBON')
    await threads.thread('Budget planning for the garden').waitFor({ state: 'detached' })
    expect(await threads.thread('Trip to Lisbon').isVisible()).toBe(true)
    expect(await threads.thread('Default').count()).toBe(0)
    await threads.search('zebra')
    await threads.root().getByText('No threads found').waitFor()
    expect(await threads.root().getByText('Try a different search term').isVisible()).toBe(true)
    await threads.search('')

    await threads.action('Trip to Lisbon', 'Add to favorites')
    await chat.toast('Thread updated successfully').waitFor()
    await threads.root().getByRole('heading', { name: 'Favorites' }).waitFor()
    expect(await threads.sections()).toEqual(['Favorites', 'Today'])

    // Rename: a blank title keeps the button disabled and Enter does nothing.
    await threads.action('Trip to Lisbon', 'Rename')
    const dialog = page.getByRole('dialog', { name: 'Rename Thread' })
    await dialog.getByLabel('Title').fill('   ')
    expect(await dialog.getByRole('button', { name: 'Rename' }).isDisabled()).toBe(true)
    await dialog.getByLabel('Title').press('Enter')
    expect(await dialog.isVisible()).toBe(true)
    await dialog.getByLabel('Title').fill('  Lisbon in spring  ')
    await dialog.getByLabel('Title').press('Enter')
    await chat.toast('Thread renamed successfully').waitFor()
    await threads.thread('Lisbon in spring').waitFor()

    await threads.action('Lisbon in spring', 'Delete')
    const confirm = page.getByRole('alertdialog')
    expect(await confirm.textContent()).toContain(
      'Are you sure you want to delete "Lisbon in spring"? This action cannot be undone.',
    )
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await chat.toast('Thread deleted successfully').waitFor()
    await threads.thread('Lisbon in spring').waitFor({ state: 'detached' })
    // The shown thread went away: back to Default.
    await threads.selected().filter({ hasText: 'Default' }).waitFor()

    // Right-click opens the same actions.
    await threads.contextAction('Budget planning for the garden', 'Add to favorites')
    await chat.toast('Thread updated successfully').waitFor()

    // Clear History while a deleted thread is shown: back to an emptied Default.
    await threads.open('Budget planning for the garden')
    // Asked first: Cancel keeps everything.
    await chat.openUserMenuItem('Clear History')
    const confirmClear = page.getByRole('alertdialog', { name: 'Clear all chat history?' })
    await confirmClear.getByRole('button', { name: 'Cancel' }).click()
    await confirmClear.waitFor({ state: 'detached' })
    expect(await threads.thread('Budget planning for the garden').count()).toBe(1)
    await chat.openUserMenuItem('Clear History')
    await confirmClear.getByRole('button', { name: 'Clear History' }).click()
    await chat.toast('Your chat history has been cleared successfully').waitFor()
    await threads.thread('Budget planning for the garden').waitFor({ state: 'detached' })
    await threads.selected().filter({ hasText: 'Default' }).waitFor()
    await chat.exchanges().first().waitFor({ state: 'detached' })
    expect(unexpectedErrors()).toEqual([])
  })

  it('a thread deleted in another tab leaves this one quietly, whether opened, deleted, starred or renamed here', async () => {
    const { page, context, chat, threads, unexpectedErrors } = await signedIn()
    const now = Math.floor(Date.now() / 1000)
    const ids = await page.evaluate(
      async (json) => {
        const form = new FormData()
        form.set('file', new File([json], 'conversations.json'))
        await fetch('/api/import', { method: 'POST', body: form })
        const list = (await (await fetch('/api/threads')).json()) as { id: string; title: string }[]
        return list.filter((t) => t.title.startsWith('Ghost')).map((t) => t.id)
      },
      JSON.stringify([
        chatgptConversation('Ghost one', now - 60),
        chatgptConversation('Ghost two', now - 120),
        chatgptConversation('Ghost three', now - 180),
        chatgptConversation('Ghost four', now - 240),
      ]),
    )
    expect(ids).toHaveLength(4)
    await page.reload()
    await threads.thread('Ghost two').waitFor()

    // Another tab of the same browser deletes them, one and then the other.
    const other = await context.newPage()
    await other.goto(`${h.server.url}/api/health`)
    const deleteThere = (id: string) =>
      other.evaluate(async (path) => (await fetch(path, { method: 'DELETE' })).status, `/api/threads/${id}`)

    // Opening it here: back to Default with a notice, not 'Failed to fetch messages'.
    expect(await deleteThere(ids[1]!)).toBe(200)
    await threads.thread('Ghost two').click()
    await chat.toast('Thread no longer exists').waitFor()
    await threads.thread('Ghost two').waitFor({ state: 'detached' })
    await threads.selected().filter({ hasText: 'Default' }).waitFor()
    expect(await page.getByText('Failed to fetch messages').count()).toBe(0)

    // Deleting it here too: the row goes, with the notice rather than 'Failed to delete thread'.
    expect(await deleteThere(ids[0]!)).toBe(200)
    await threads.action('Ghost one', 'Delete')
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await threads.thread('Ghost one').waitFor({ state: 'detached' })
    await chat.toast('Thread no longer exists').waitFor()
    expect(await chat.toast('Failed to delete thread').count()).toBe(0)

    // Starring or renaming it here: the same, never 'Failed to update / rename thread'.
    expect(await deleteThere(ids[2]!)).toBe(200)
    await threads.action('Ghost three', 'Add to favorites')
    await threads.thread('Ghost three').waitFor({ state: 'detached' })
    expect(await deleteThere(ids[3]!)).toBe(200)
    await threads.action('Ghost four', 'Rename')
    const dialog = page.getByRole('dialog', { name: 'Rename Thread' })
    await dialog.getByLabel('Title').fill('Not there any more')
    await dialog.getByRole('button', { name: 'Rename' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await threads.thread('Ghost four').waitFor({ state: 'detached' })
    expect(await chat.toast(/Failed to (update|rename) thread/).count()).toBe(0)
    expect(unexpectedErrors([/status of 404/])).toEqual([])
  })

  it('starts a new thread from a reply with the @ button', async () => {
    const { page, chat, threads, unexpectedErrors } = await signedIn()
    await chat.send('Seed message for a branch')
    await chat.waitForReply('Seed message for a branch')
    await chat.reply('Seed message for a branch').hover()
    await page.getByRole('button', { name: 'Start new thread from this message' }).click()
    await chat.toast('New thread created from this conversation').waitFor()
    expect(await chat.toast('Thread created').isVisible()).toBe(true)
    // The new thread is selected and holds a copy of the exchange.
    await threads.selected().filter({ hasNotText: 'Default' }).waitFor()
    await chat.waitForReply('Seed message for a branch')
    expect(await threads.selected().textContent()).toContain('Seed message for a branch')
    expect(unexpectedErrors()).toEqual([])
  })

  it("keeps a reply sent while the thread's messages are still loading", async () => {
    const { page, chat, threads, unexpectedErrors } = await signedIn()
    await threads.newThread()
    await chat.send('Bulbs to order')
    await chat.waitForReply('Bulbs to order')
    const threadId = new URL(page.url()).pathname.split('/').at(-1)
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/)
    // A fresh page on Default: the new thread's messages are not loaded yet.
    await threads.open('Default')
    await page.reload()
    await threads.selected().filter({ hasText: 'Default' }).waitFor()
    // Its first load is answered by the server at once (without the send to come) but reaches
    // the page only after that send has finished, as on a slow connection.
    const firstLoad = await holdNextRequest(
      page,
      (url) => url.pathname === '/api/messages' && url.searchParams.get('threadId') === threadId,
    )
    h.standIn.setChunkDelayMs(150)
    try {
      await threads.open('Bulbs to order')
      await chat.send('Seeds to sow')
      await chat.stopButton().waitFor()
      await chat.stopButton().waitFor({ state: 'detached' })
    } finally {
      h.standIn.reset()
      await firstLoad.release()
    }
    expect(firstLoad.taken()).toBe(true)
    await chat.waitForReply('Bulbs to order')
    await chat.waitForReply('Seeds to sow', 'Echo: Seeds to sow')
    expect(await chat.exchanges().count()).toBe(2)
    expect(unexpectedErrors()).toEqual([])
  })

  it('resizes the panels from the keyboard in 10 percent steps', async () => {
    const { page } = await signedIn()
    const separator = page.getByRole('separator', { name: 'Resize thread list' })
    expect(await separator.getAttribute('aria-valuenow')).toBe('25')
    await separator.focus()
    await page.keyboard.press('ArrowRight')
    await page.waitForFunction(
      () => document.querySelector('[role="separator"]')?.getAttribute('aria-valuenow') === '35',
    )
    await page.keyboard.press('Shift+ArrowLeft')
    await page.waitForFunction(
      () => document.querySelector('[role="separator"]')?.getAttribute('aria-valuenow') === '15',
    )
  })

  it('loads older threads and older exchanges a page at a time as the person scrolls', async () => {
    const { page, chat, threads, unexpectedErrors } = await signedIn()
    // A history longer than a page of each list, brought in through the ChatGPT import.
    const turn = (id: string, parent: string, role: string, text: string, time: number) => ({
      id,
      parent,
      children: [] as string[],
      message: { author: { role }, content: { content_type: 'text', parts: [text] }, create_time: time },
    })
    const conversation = (title: string, time: number, exchanges: number) => {
      const mapping: Record<string, ReturnType<typeof turn>> = {}
      let parent = 'root'
      mapping.root = { id: 'root', parent: '', children: [], message: null as never }
      for (let i = 0; i < exchanges; i++) {
        for (const [role, text] of [
          ['user', `${title} question ${i}`],
          ['assistant', `Answer ${i}`],
        ] as const) {
          const id = `${role}-${i}`
          mapping[id] = turn(id, parent, role, text, time + i * 2 + (role === 'user' ? 0 : 1))
          mapping[parent]?.children.push(id)
          parent = id
        }
      }
      return {
        title,
        conversation_id: title,
        create_time: time,
        update_time: time + exchanges * 2,
        current_node: parent,
        mapping,
      }
    }
    const start = Math.floor(Date.now() / 1000) - 400 * 86_400
    const file = [
      conversation('Long talk', start + 300 * 86_400, 75),
      ...Array.from({ length: 70 }, (_, i) => conversation(`Old talk ${i}`, start + (70 - i) * 86_400, 1)),
    ]
    const status = await page.evaluate(async (json) => {
      const form = new FormData()
      form.set('file', new File([json], 'conversations.json'))
      return (await fetch('/api/import', { method: 'POST', body: form, credentials: 'include' })).status
    }, JSON.stringify(file))
    expect(status).toBe(200)
    // A favourite among the oldest threads: it is under Favorites from the first page, unscrolled.
    const starred = await page.evaluate(async () => {
      const list = (await (await fetch('/api/threads')).json()) as { id: string; title: string }[]
      const id = list.find((t) => t.title === 'Old talk 68')?.id
      const put = await fetch(`/api/threads/${id}/favorite`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ isFavorite: true }),
      })
      return put.status
    })
    expect(starred).toBe(200)

    const listRequests: string[] = []
    page.on('request', (req) => {
      if (req.url().includes('/api/threads') || req.url().includes('/api/messages'))
        listRequests.push(req.url())
    })
    await page.reload()
    await threads.thread('Long talk').waitFor()
    expect(listRequests.every((url) => url.includes('limit='))).toBe(true)
    expect((await threads.sections()).slice(0, 2)).toEqual(['Favorites', 'Older'])
    expect((await threads.titles()).slice(0, 2)).toEqual(['Default', 'Old talk 68'])

    // A next page that fails is not asked for again at once (a search leaves few rows, so the
    // list keeps wanting more): it waits for Retry.
    const nextPage = (url: URL) => url.pathname === '/api/threads' && url.searchParams.has('cursor')
    await page.route(nextPage, (route) => route.fulfill({ status: 500, body: 'Internal Server Error' }))
    const failedPages = () => listRequests.filter((url) => nextPage(new URL(url))).length
    await threads.search('Long talk')
    const retry = threads.root().getByRole('button', { name: 'Retry' })
    await retry.waitFor()
    await page.waitForTimeout(3000)
    expect(failedPages()).toBeLessThanOrEqual(2)
    await page.unroute(nextPage)
    await retry.click()
    await retry.waitFor({ state: 'detached' })
    await threads.search('')
    // The oldest thread is on a later page: it comes as the list scrolls to its end.
    const list = threads.root().locator('.overflow-y-auto')
    for (let i = 0; i < 30 && (await threads.thread('Old talk 69').count()) === 0; i++) {
      await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
      await threads
        .thread('Old talk 69')
        .waitFor({ timeout: 300 })
        .catch(() => undefined)
    }
    await threads.thread('Old talk 69').waitFor()
    expect(listRequests.some((url) => url.includes('/api/threads') && url.includes('cursor='))).toBe(true)

    // The thread opens at its newest exchanges; older ones come as the reader scrolls up.
    await list.evaluate((el) => el.scrollTo({ top: 0 }))
    await threads.open('Long talk')
    await chat.exchange('Long talk question 74').waitFor()
    expect(await chat.exchange(/^Long talk question 0$/).count()).toBe(0)
    const conversationView = page.getByTestId('conversation')
    for (let i = 0; i < 30 && (await chat.exchange(/^Long talk question 0$/).count()) === 0; i++) {
      await conversationView.evaluate((el) => el.scrollTo({ top: 0 }))
      await chat
        .exchange(/^Long talk question 0$/)
        .waitFor({ timeout: 300 })
        .catch(() => undefined)
    }
    await chat.exchange(/^Long talk question 0$/).waitFor()
    // Loading older exchanges does not throw the reader back to the end.
    expect(await chat.exchange('Long talk question 74').count()).toBe(0)
    expect(listRequests.some((url) => url.includes('/api/messages') && url.includes('cursor='))).toBe(true)
    expect(unexpectedErrors([/status of 500/])).toEqual([])
  })

  it('opens the thread list as a drawer on a phone', async () => {
    const { page, chat, threads, unexpectedErrors } = await signedIn({ width: 390, height: 844 })
    await chat.send('Phone thread seed')
    await chat.waitForReply('Phone thread seed')
    expect(await threads.root().count()).toBe(0)
    await page.getByRole('button', { name: 'Show Threads' }).click()
    await threads.newThread()
    await page.getByRole('dialog', { name: 'Threads' }).waitFor({ state: 'hidden' })
    await chat.send('Second phone thread')
    await chat.waitForReply('Second phone thread')
    await page.getByRole('button', { name: 'Show Threads' }).click()
    // A long press (touch) opens a thread's actions.
    const box = await threads.thread('Second phone thread').boundingBox()
    await threads.thread('Second phone thread').dispatchEvent('pointerdown', {
      pointerType: 'touch',
      isPrimary: true,
      button: 0,
      clientX: (box?.x ?? 0) + 20,
      clientY: (box?.y ?? 0) + 10,
    })
    await page.getByRole('menu', { name: 'Actions for Second phone thread' }).waitFor()
    await page.keyboard.press('Escape')
    await threads.thread('Default').click()
    await page.getByRole('dialog', { name: 'Threads' }).waitFor({ state: 'hidden' })
    await chat.waitForReply('Phone thread seed')
    expect(unexpectedErrors()).toEqual([])
  })
})
