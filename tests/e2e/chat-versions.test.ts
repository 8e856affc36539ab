// Versions in the browser: edit a sent message, regenerate a reply in another mode,
// ‹ 2/3 › switching with the rest of the conversation following, Retry of a failed reply, and the
// reply footer (model, time, CO2, Copy, '@').
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { lorisMessage, lorisThreadExport } from '../../src/server/features/import/loris-export-kit.ts'
import { ThreadList } from '../pages/thread-list.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'
import { holdNextRequest } from './support/held-request.ts'

const h = chatHarnessForFile({ emailPrefix: 'versions' })

const shots = path.resolve(import.meta.dirname, '../../.tmp/e2e-screenshots')

describe('message versions', () => {
  it('edits a sent message into a new version; ‹ › switches and the conversation follows', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 1440, height: 900 } })
    await chat.send('alpha')
    await chat.waitForReply('alpha', 'Echo: alpha')
    await chat.send('bravo')
    await chat.waitForReply('bravo', 'Echo: bravo')
    await chat.send('charlie')
    await chat.waitForReply('charlie', 'Echo: charlie')

    await chat.editMessage('bravo', 'bravo edited')
    // The model saw alpha's exchange and the new text only.
    await chat.waitForReply('bravo edited', 'Echo: bravo edited\n(history: 3 messages')
    await chat.exchange('charlie').waitFor({ state: 'detached' })
    expect(await chat.exchanges().count()).toBe(2)
    await chat.replyFooter('bravo edited').getByTestId('version-switcher').waitFor()
    expect(await chat.versionText('bravo edited')).toBe('2/2')

    await chat.replyFooter('bravo edited').getByRole('button', { name: 'Previous version' }).click()
    await chat.waitForReply('charlie', 'Echo: charlie')
    expect(await chat.versionText(/^bravo$/)).toBe('1/2')
    expect(await chat.exchanges().count()).toBe(3)

    // The choice is stored: a reload shows the same branch.
    await page.reload()
    await chat.waitForReply('charlie', 'Echo: charlie')
    expect(await chat.versionText(/^bravo$/)).toBe('1/2')
    await chat
      .replyFooter(/^bravo$/)
      .getByRole('button', { name: 'Next version' })
      .click()
    await chat.exchange('charlie').waitFor({ state: 'detached' })
    await chat.waitForReply('bravo edited')
    await page.screenshot({ path: path.join(shots, 'chat-versions-1440.png') })
    expect(unexpectedErrors()).toEqual([])
  })

  it('a version chosen while the thread is being refetched stays chosen', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 1440, height: 900 } })
    await chat.send('alpha')
    await chat.waitForReply('alpha', 'Echo: alpha')
    await chat.editMessage('alpha', 'alpha two')
    await chat.waitForReply('alpha two', 'Echo: alpha two')
    await chat.replyFooter('alpha two').getByTestId('version-switcher').waitFor()
    // The refetch after the next send is asked at once but answered only when released: the
    // person switches the version meanwhile, and its answer holds the branch shown before.
    const load = await holdNextRequest(page, (url) => url.pathname === '/api/messages')
    try {
      await chat.send('bravo')
      await chat.waitForReply('bravo', 'Echo: bravo')
      const refetch = await load.request
      const abandoned = page.waitForEvent('requestfailed', {
        predicate: (r) => r === refetch,
        timeout: 10_000,
      })
      await chat.replyFooter('alpha two').getByRole('button', { name: 'Previous version' }).click()
      await chat.waitForReply(/^alpha$/, 'Echo: alpha')
      // The switch gave up on the refetch asked before it; had that answer landed, the branch of
      // "alpha two" and "bravo" would be back.
      await abandoned
    } finally {
      await load.release()
    }
    expect(await chat.versionText(/^alpha$/)).toBe('1/2')
    expect(await chat.exchange('bravo').count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it('regenerates a reply in another mode; the footer names the model and shows the CO2', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 390, height: 844 } })
    await chat.send('delta')
    await chat.waitForReply('delta', 'Echo: delta')
    const footer = chat.replyFooter('delta')
    await footer.getByTestId('reply-model').waitFor()
    expect(await footer.getByTestId('reply-model').innerText()).toBe('Gemini 2.5 Pro')
    expect(await footer.locator('time').count()).toBe(1)
    expect(await footer.getByTestId('reply-co2').innerText()).toMatch(/^[\d.]+ g CO2 · [\d.]+ g saved$/)
    // The tooltip: CO2 with its bounds, then energy and water beside it.
    await footer.getByTestId('reply-co2').focus()
    const footprint = page.getByTestId('reply-footprint').first()
    await footprint.waitFor()
    const figures = await footprint.innerText()
    expect(figures).toMatch(/CO2 of this reply\s+[\d.]+ g \([\d.]+ to [\d.]+ g\)/)
    expect(figures).toMatch(/Energy\s+[\d.]+ k?Wh/)
    expect(figures).toMatch(/Water\s+[\d.]+ m?L/)
    await footer.getByTestId('reply-co2').blur()

    await chat.regenerate('delta', 'ChatGPT')
    await chat.waitForReply('delta', 'Echo: delta')
    await footer.getByTestId('version-switcher').waitFor()
    expect(await chat.versionText('delta')).toBe('2/2')
    expect(await chat.reply('delta').getAttribute('data-model')).toBe('chatgpt')
    expect(await footer.getByTestId('reply-model').innerText()).toBe('GPT-3.5 Turbo')
    // Still one turn: a regeneration is a version, not another message.
    expect(await chat.exchanges().count()).toBe(1)

    // '@' sits in the action row with its tooltip and still branches.
    const at = footer.getByRole('button', { name: 'Start new thread from this message' })
    await at.focus()
    await page.getByRole('tooltip', { name: 'Start new thread from this message' }).waitFor()
    await page.screenshot({ path: path.join(shots, 'chat-versions-390.png') })
    expect(unexpectedErrors()).toEqual([])
  })

  it('offers Retry on a failed reply, which answers as a new version', async () => {
    const { chat, unexpectedErrors } = await h.signedInChat()
    await chat.send('echo')
    await chat.waitForReply('echo', 'Echo: echo')
    h.standIn.setScenario('upstream-error')
    await chat.regenerate('echo', 'Gemini')
    const retry = chat.replyFooter('echo').getByRole('button', { name: 'Retry' })
    await retry.waitFor()
    expect(await chat.versionText('echo')).toBe('2/2')
    h.standIn.reset()
    await retry.click()
    await chat.waitForReply('echo', 'Echo: echo')
    await chat.replyFooter('echo').getByRole('button', { name: 'Retry' }).waitFor({ state: 'detached' })
    expect(await chat.versionText('echo')).toBe('3/3')
    expect(unexpectedErrors([/502|Bad Gateway|Failed to load resource/])).toEqual([])
  })

  it('a version switched to that leads a long branch stays in view, its later pages loaded above', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 1440, height: 900 } })
    // A Loris export whose first question has two versions: the first shown, alone; the second
    // followed by 40 more exchanges, more than the newest page a switch answers with.
    const at = (s: number) => new Date(Date.now() - 3_600_000 + s * 1000).toISOString()
    const short = { id: crypto.randomUUID(), ...lorisMessage(at(0)), content: 'The very first question' }
    const long = { ...short, id: crypto.randomUUID(), response: 'A long answer', createdAt: at(1) }
    const rows: object[] = [
      { ...short, response: 'A short answer', selectedAt: at(100) },
      { ...long, selectedAt: at(1) },
    ]
    let parentId = long.id
    for (let i = 1; i <= 40; i++) {
      const id = crypto.randomUUID()
      rows.push({
        ...lorisMessage(at(i + 1), { content: `Question number ${i} here`, response: `Answer ${i}` }),
        id,
        parentId,
        selectedAt: at(i + 1),
      })
      parentId = id
    }
    const file = JSON.stringify(lorisThreadExport('Branches', rows))
    const imported = await page.evaluate(async (json) => {
      const form = new FormData()
      form.set('file', new File([json], 'branches.json'))
      const res = await fetch('/api/import', { method: 'POST', body: form })
      return res.ok ? ((await res.json()) as unknown) : { status: res.status }
    }, file)
    expect(imported).toMatchObject({ threadsImported: 1 })
    await page.reload()
    await new ThreadList(page).open('Branches')
    await chat.waitForReply('The very first question', 'A short answer')
    expect(await chat.versionText('The very first question')).toBe('1/2')

    await chat.replyFooter('The very first question').getByRole('button', { name: 'Next version' }).click()
    // The answer holds the branch's newest page; the pages before it load until the turn switched
    // is there, and it is brought into view with what follows it.
    await chat.waitForReply('The very first question', 'A long answer')
    await chat.waitForReply('Question number 1 here', 'Answer 1')
    expect(await chat.versionText('The very first question')).toBe('2/2')
    const box = await chat.exchange('The very first question').boundingBox()
    expect(box && box.y + box.height > 0 && box.y < 900).toBe(true)
    expect(unexpectedErrors()).toEqual([])
  })
})
