// Voice input through the built app: Chromium's fake microphone plays tests/fixtures/goforward.wav
// and the server transcribes it offline (pocketsphinx), so the words are real recognition.

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ComposerControls, fixturePath } from '../pages/composer.ts'
import { ThreadList } from '../pages/thread-list.ts'
import { type ChatHarness, startChatHarness } from './support/chat-harness.ts'

let h: ChatHarness

beforeAll(async () => {
  h = await startChatHarness({
    emailPrefix: 'voice',
    env: { TRANSCRIBE_ENGINE: 'pocketsphinx' },
    browserArgs: [
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${fixturePath('goforward.wav')}`,
    ],
  })
})
afterAll(() => h?.close())

async function signedInChat() {
  const tab = await h.signedInChat({ permissions: ['microphone'] })
  return { ...tab, composer: new ComposerControls(tab.page) }
}

/** Records until the timer shows `until` (the fixture's words take about 3 s), then stops. */
async function record(composer: ComposerControls, until: string) {
  await composer.recordButton().click()
  await composer.waitForPlaceholder(/^Recording\.\.\. 0:0\d$/)
  await composer.waitForPlaceholder(new RegExp(`^Recording\\.\\.\\. ${until}$`))
}

/**
 * Keeps every microphone stream the page opens, to tell later whether any is still on; each is
 * given after `answerAfterMs`, as after a permission prompt.
 */
async function watchMicrophones(page: Page, answerAfterMs = 0) {
  await page.evaluate((delay) => {
    const devices = navigator.mediaDevices
    const ask = devices.getUserMedia.bind(devices)
    const given: MediaStream[] = []
    Object.assign(window, { givenStreams: given })
    devices.getUserMedia = async (constraints) => {
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay))
      const stream = await ask(constraints)
      given.push(stream)
      return stream
    }
  }, answerAfterMs)
}

/** How many microphones the page opened, and how many of their tracks are still live. */
function microphones(page: Page) {
  return page.evaluate(() => {
    const given = (window as unknown as { givenStreams: MediaStream[] }).givenStreams
    return {
      opened: given.length,
      live: given.flatMap((s) => s.getTracks()).filter((t) => t.readyState === 'live').length,
    }
  })
}

async function waitForWords(page: Page) {
  await page.waitForFunction(() => {
    const el = document.querySelector('textarea[aria-label="Message"]')
    return el instanceof HTMLTextAreaElement && el.value.length > 0
  })
}

describe('voice input', () => {
  it('records, transcribes offline, and puts the words in the input with focus back', async () => {
    const { chat, composer, page, unexpectedErrors } = await signedInChat()
    await composer.recordButton().click()
    await composer.waitForPlaceholder(/^Recording\.\.\. 0:00$/)
    // Sending waits while recording, even with text typed.
    await chat.composer().fill('Please')
    expect(await chat.sendButton().isDisabled()).toBe(true)
    await chat.composer().fill('')
    await composer.waitForPlaceholder(/^Recording\.\.\. 0:04$/)
    await composer.stopRecordingButton().click()

    await page.waitForFunction(() => {
      const el = document.querySelector('textarea[aria-label="Message"]')
      return el instanceof HTMLTextAreaElement && el.value.length > 0
    })
    expect(await chat.composer().inputValue()).toMatch(/^go forward ten meters/)
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message')
    expect(await composer.placeholder()).not.toMatch(/^Recording/)
    expect(unexpectedErrors()).toEqual([])
  })

  it('a recording goes on through a change of layout, then stops and transcribes as before', async () => {
    const { chat, composer, page, unexpectedErrors } = await signedInChat()
    await watchMicrophones(page)
    const threads = new ThreadList(page)
    await threads.root().waitFor()
    await record(composer, '0:01')
    // A tablet turned: below 1024 px the panels give way to the phone's column, and back.
    await page.setViewportSize({ width: 900, height: 800 })
    await threads.root().waitFor({ state: 'detached' })
    expect(await composer.placeholder()).toMatch(/^Recording\.\.\. 0:0\d$/)
    await composer.stopRecordingButton().waitFor()
    await page.setViewportSize({ width: 1280, height: 800 })
    await threads.root().waitFor()
    expect(await composer.placeholder()).toMatch(/^Recording\.\.\. 0:0\d$/)
    await composer.waitForPlaceholder(/^Recording\.\.\. 0:04$/)
    await composer.stopRecordingButton().click()

    await waitForWords(page)
    expect(await chat.composer().inputValue()).toMatch(/^go forward ten meters/)
    expect(await microphones(page)).toEqual({ opened: 1, live: 0 })
    expect(unexpectedErrors()).toEqual([])
  })

  it('signing out while recording turns the microphone off', async () => {
    const { chat, composer, page, unexpectedErrors } = await signedInChat()
    await watchMicrophones(page)
    await record(composer, '0:01')
    await chat.signOut()
    await page.waitForFunction(() =>
      (window as unknown as { givenStreams: MediaStream[] }).givenStreams
        .flatMap((s) => s.getTracks())
        .every((t) => t.readyState === 'ended'),
    )
    expect(await microphones(page)).toEqual({ opened: 1, live: 0 })
    expect(await composer.placeholder()).not.toMatch(/^Recording/)
    expect(unexpectedErrors()).toEqual([])
  })

  it('cancel discards the recording', async () => {
    const { chat, composer, unexpectedErrors } = await signedInChat()
    await record(composer, '0:01')
    await composer.cancelRecordingButton().click()
    await composer.recordButton().waitFor()
    expect(await chat.composer().inputValue()).toBe('')
    expect(await composer.chip().count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it('a failed transcription keeps the audio attached; Enter sends it and the server transcribes it', async () => {
    const { chat, composer, page, unexpectedErrors } = await signedInChat()
    // The transcription service is down for this one request.
    await page.route('**/api/transcribe', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'service_unavailable:transcription', message: 'Down', error: 'Down' }),
      }),
    )
    await record(composer, '0:04')
    await composer.stopRecordingButton().click()
    await chat.toast('Transcription failed').waitFor()
    await composer
      .chip()
      .filter({ hasText: /^Audio recorded \(0:0\d\) - Press Enter to send$/ })
      .waitFor()
    await composer.discardRecordingButton().waitFor()

    await chat.composer().press('Enter')
    await page
      .getByTestId('assistant-reply')
      .and(page.locator('[aria-busy="false"]'))
      .filter({ hasText: 'Echo: go forward ten meters' })
      .waitFor()
    expect(await composer.chip().count()).toBe(0)
    expect(unexpectedErrors([/status of 503/])).toEqual([])
  })

  it('the audio button clears a kept recording', async () => {
    const { composer, page, unexpectedErrors } = await signedInChat()
    await page.route('**/api/transcribe', (route) => route.fulfill({ status: 502, body: '{}' }))
    await record(composer, '0:01')
    await composer.stopRecordingButton().click()
    await composer.chip().filter({ hasText: 'Audio recorded' }).waitFor()
    await composer.discardRecordingButton().click()
    expect(await composer.chip().count()).toBe(0)
    await composer.recordButton().waitFor()
    expect(unexpectedErrors([/status of 502/])).toEqual([])
  })

  it('a second click while the microphone is asked for opens no second one', async () => {
    const { composer, page, unexpectedErrors } = await signedInChat()
    // The microphone answers as after a permission prompt; every stream it gives is kept.
    await watchMicrophones(page, 300)
    await composer.recordButton().dblclick()
    await composer.waitForPlaceholder(/^Recording\.\.\. 0:0\d$/)
    await composer.cancelRecordingButton().click()
    await composer.recordButton().waitFor()
    // One microphone was opened, and it is off again.
    const streams = await page.evaluate(() => {
      const given = (window as unknown as { givenStreams: MediaStream[] }).givenStreams
      return {
        opened: given.length,
        live: given.flatMap((s) => s.getTracks()).filter((t) => t.readyState === 'live').length,
      }
    })
    expect(streams).toEqual({ opened: 1, live: 0 })
    expect(unexpectedErrors()).toEqual([])
  })

  it('a denied microphone says so in an alert', async () => {
    const { composer, page, unexpectedErrors } = await signedInChat()
    await page.evaluate(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('denied', 'NotAllowedError'))
    })
    // An open alert blocks the page: accept it as it appears, and read what it said.
    const seen = new Promise<string[]>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve([dialog.type(), dialog.message()])
        void dialog.accept()
      }),
    )
    await composer.recordButton().click()
    expect(await seen).toEqual([
      'alert',
      'Could not access microphone. Please ensure microphone permissions are granted.',
    ])
    await composer.recordButton().waitFor()
    expect(unexpectedErrors()).toEqual([])
  })
})
