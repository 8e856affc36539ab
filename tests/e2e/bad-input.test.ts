// Bad input in the browser: a long document whose name is not Latin-1 must not make the notice
// header throw (a 500 while the reply is still generated and charged): the reply arrives and the
// person is told, in their file's own name, that only part of it was read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ComposerControls } from '../pages/composer.ts'
import { type ChatHarness, startChatHarness } from './support/chat-harness.ts'

let h: ChatHarness
beforeAll(async () => {
  h = await startChatHarness({ emailPrefix: 'bad-input' })
  h.standIn.setChunkDelayMs(0)
})
afterAll(() => h?.close())

describe('a long document named in any script', () => {
  it('gets its reply and a toast naming the file', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat()
    const composer = new ComposerControls(page)
    const name = 'отчёт-日本語-🦥.txt'
    await composer.attachButton().click()
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('menuitem', { name: 'Upload file' }).click()
    await (await chooser).setFiles({
      name,
      mimeType: 'text/plain',
      buffer: Buffer.from(`${'The loris forages at night. '.repeat(2_600)}THE END`),
    })
    await composer.chip().filter({ hasText: name }).waitFor()
    await chat.composer().fill('Summarise this')
    await chat.sendButton().click()
    await chat.toast('Only part of the file was read').waitFor()
    expect(await chat.toast('Only part of the file was read').textContent()).toContain(`${name} is long`)
    await chat.waitForReply('Summarise this', 'forages at night')
    expect(unexpectedErrors()).toEqual([])
  })
})
