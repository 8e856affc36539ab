// Files with messages through the built app and the AI stand-in, which echoes what it was sent:
// an image picked with 'Upload image', a PDF dropped on the chat, and files the drop ignores.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ChatPage } from '../pages/chat-page.ts'
import { ComposerControls, fixturePath } from '../pages/composer.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'

const h = chatHarnessForFile({ emailPrefix: 'files', resetStandIn: false })

async function signedInChat() {
  const tab = await h.signedInChat()
  return { ...tab, composer: new ComposerControls(tab.page) }
}

describe('attachments', () => {
  it('an image picked with Upload image is shown in the exchange and reaches the model', async () => {
    const { page, chat, composer, unexpectedErrors } = await signedInChat()
    expect(await composer.accept('Upload image')).toBe('image/*')
    expect(await composer.accept('Upload file')).toBe('.pdf,.doc,.docx,.txt,.csv,.xlsx,.xls')

    await composer.upload('Upload image', 'image.png')
    await composer.chip().filter({ hasText: 'image.png' }).filter({ hasText: '821 B' }).waitFor()
    await chat.send('What is in this picture?')

    const reply = await chat.waitForReply('What is in this picture?', '[image image/png 821 bytes]')
    expect(await reply.textContent()).toContain('Echo: What is in this picture?')
    const exchange = chat.exchange('What is in this picture?')
    await exchange.getByText('Shared an image').waitFor()
    const image = exchange.getByRole('img', { name: 'Shared by you' })
    await page.waitForFunction(
      (el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0,
      await image.elementHandle(),
    )
    expect(await image.getAttribute('src')).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/)
    expect(await image.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('400px')
    expect(await composer.chip().count()).toBe(0)

    // After a reload the stored message shows the same image.
    await page.reload()
    await chat.exchange('What is in this picture?').getByRole('img', { name: 'Shared by you' }).waitFor()
    expect(unexpectedErrors()).toEqual([])
  })

  it('an image pasted from the clipboard is attached with a thumbnail and reaches the model', async () => {
    const { chat, composer, unexpectedErrors } = await signedInChat()
    await chat.composer().fill('What did I paste?')
    await composer.paste('image.png', 'image/png')
    const chip = composer.chip().filter({ hasText: 'image.png' })
    await chip.waitFor()
    // The thumbnail is the pasted picture itself, decoded by the browser.
    await chip.getByTestId('attachment-thumbnail').evaluate((img: HTMLImageElement) =>
      img.complete && img.naturalWidth > 0
        ? true
        : new Promise((resolve, reject) => {
            img.onload = () => resolve(true)
            img.onerror = () => reject(new Error('the thumbnail did not load'))
          }),
    )
    // A text paste is not taken for a file: the typed text is still there.
    expect(await chat.composer().inputValue()).toBe('What did I paste?')
    await chat.composer().press('Enter')
    await chat.waitForReply('What did I paste?', '[image image/png 821 bytes]')
    expect(unexpectedErrors()).toEqual([])
  })

  it('text copied from Excel or Word, which carries a picture of itself, is pasted as text', async () => {
    const { chat, composer, page, unexpectedErrors } = await signedInChat()
    await chat.composer().fill('Cells: ')
    // Left to the browser, which puts the text in the box; no picture is attached.
    expect(await composer.paste('image.png', 'image/png', 'image.png', 'A1\tB1\n2\t3')).toBe(true)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    expect(await composer.chip().count()).toBe(0)
    expect(await chat.composer().inputValue()).toBe('Cells: ')
    expect(unexpectedErrors()).toEqual([])
  })

  it('a file dropped beside the chat column is not opened in place of the app', async () => {
    const { chat, composer, page, unexpectedErrors } = await signedInChat()
    await chat.composer().fill('keep me')
    await composer.upload('Upload file', 'notes.txt')
    await composer.chip().filter({ hasText: 'notes.txt' }).waitFor()
    for (const beside of ['nav[aria-label="Threads"]', 'header', '[role="separator"]'])
      expect(await composer.dropOn(beside, 'document.pdf', 'application/pdf'), beside).toBe(false)
    expect(new URL(page.url()).pathname).toMatch(/^\/chat/)
    expect(await chat.composer().inputValue()).toBe('keep me')
    expect(await composer.chip().filter({ hasText: 'notes.txt' }).count()).toBe(1)
    // The drop zone itself still takes a drop.
    await composer.drop('document.pdf', 'application/pdf')
    await composer.chip().filter({ hasText: 'document.pdf' }).waitFor()
    expect(unexpectedErrors()).toEqual([])
  })

  it('a dropped PDF shows the overlay, its card naming the file and type, and a reply that read it', async () => {
    const { chat, composer, page, unexpectedErrors } = await signedInChat()
    await composer.dragOver('document.pdf', 'application/pdf')
    await composer.dropOverlay().getByText('Drop your file here').waitFor()
    expect(await composer.dropOverlay().textContent()).toContain('Supports images, documents, and text files')

    await composer.drop('document.pdf', 'application/pdf')
    expect(await composer.dropOverlay().count()).toBe(0)
    await composer.chip().filter({ hasText: 'document.pdf' }).waitFor()
    await chat.send('Summarise this')

    await chat.waitForReply('Summarise this', 'The loris sleeps during the day and forages at night.')
    const exchange = chat.exchange('Summarise this')
    await exchange.getByText('Shared a document').waitFor()
    await exchange.getByText('Document attached').waitFor()
    // The card names the file and its type, and downloads it.
    const card = exchange.getByRole('link', { name: /Document attached/ })
    expect(await card.getByTestId('document-details').textContent()).toBe('document.pdf·PDF')
    expect(await card.getAttribute('href')).toMatch(/^\/api\/uploads\//)
    // After a reload, from the stored message.
    await page.reload()
    const reloaded = chat.exchange('Summarise this').getByRole('link', { name: /Document attached/ })
    expect(await reloaded.getByTestId('document-details').textContent()).toBe('document.pdf·PDF')
    expect(unexpectedErrors()).toEqual([])
  })

  it('a file alone can be sent, and a dropped file of another type is ignored', async () => {
    const { chat, composer, page, unexpectedErrors } = await signedInChat()
    await composer.drop('not-audio.webm', 'application/zip', 'archive.zip')
    expect(await composer.chip().count()).toBe(0)
    expect(await chat.sendButton().isDisabled()).toBe(true)

    await composer.upload('Upload file', 'notes.txt')
    await composer.chip().filter({ hasText: 'notes.txt' }).waitFor()
    expect(await chat.sendButton().isDisabled()).toBe(false)
    await chat.composer().press('Enter')
    await page
      .getByTestId('assistant-reply')
      .and(page.locator('[aria-busy="false"]'))
      .filter({ hasText: 'Loris notes: compost on Tuesdays.' })
      .waitFor()
    expect(unexpectedErrors()).toEqual([])
  })

  it('shows the upload progress of a large file on a slow connection', async () => {
    const { page, context, chat, unexpectedErrors } = await signedInChat()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    // About 4 s for 3 MB: long enough to see the progress bar move.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 768 * 1024,
    })
    const png = new Uint8Array(3 * 1024 * 1024)
    png.set(readFileSync(fixturePath('image.png')))
    await page.getByRole('button', { name: 'Attach a file' }).click()
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('menuitem', { name: 'Upload image' }).click()
    await (await chooser).setFiles({ name: 'large.png', mimeType: 'image/png', buffer: Buffer.from(png) })
    await chat.send('A large picture')

    const progress = page.getByRole('progressbar', { name: 'Uploading large.png' })
    await progress.waitFor()
    await page.waitForFunction(() => {
      const bar = document.querySelector('[role="progressbar"]')
      return Number(bar?.getAttribute('aria-valuenow')) > 0
    })
    await chat.waitForReply('A large picture', `[image image/png ${png.length} bytes]`)
    expect(await progress.count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  }, 120_000)

  it("a visitor's chosen file waits in memory through sign-up and goes with the draft", async () => {
    const { page, unexpectedErrors } = await h.browser.newPage()
    const chat = new ChatPage(page, h.server.url)
    const composer = new ComposerControls(page)
    await chat.open()
    await composer.upload('Upload image', 'image.webp')
    await chat.send('Is this a loris?')
    await chat.dialog().waitFor()
    // Only the text is in session storage; the file stays in memory.
    expect(await page.evaluate(() => sessionStorage.getItem('pending-chat-message'))).not.toContain('webp')
    await composer.chip().filter({ hasText: 'image.webp' }).waitFor()
    await chat.fillCredentials('Sign up', `files-draft-${Date.now()}@example.com`, 'a strong password')

    await chat.waitForReply('Is this a loris?', '[image image/webp 466 bytes]')
    await chat.exchange('Is this a loris?').getByRole('img', { name: 'Shared by you' }).waitFor()
    expect(await composer.chip().count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it('a file the server refuses says why and comes back to the composer', async () => {
    const { chat, composer, unexpectedErrors } = await signedInChat()
    // An executable renamed to .png: the server reads the bytes, not the name.
    await composer.upload('Upload image', 'program.png')
    await chat.send('Look at this')
    await chat.toast(/This type of file is not supported/).waitFor()
    await composer.chip().filter({ hasText: 'program.png' }).waitFor()
    expect(await chat.composer().inputValue()).toBe('Look at this')
    expect(unexpectedErrors([/status of 415/])).toEqual([])
  })

  it('the chip removes a chosen file', async () => {
    const { composer, chat, unexpectedErrors } = await signedInChat()
    await composer.upload('Upload file', 'data.csv')
    await composer.chip().getByRole('button', { name: 'Remove data.csv' }).click()
    expect(await composer.chip().count()).toBe(0)
    expect(await chat.sendButton().isDisabled()).toBe(true)
    expect(unexpectedErrors()).toEqual([])
  })
})
