// Models beside the three modes, through the built app: loopback stand-ins of Anthropic, Mistral
// and an OpenAI-compatible server each answer a send chosen under "More models"; the eco mode
// routes between the in-process stories260K engine and a vision stand-in, each footer saying
// why; "Ask a larger model" makes a version from the next model up; the composer's footprint
// estimate follows the text and the mode.
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChatPage } from '../pages/chat-page.ts'
import { ComposerControls } from '../pages/composer.ts'
import { type AiStandIn, catalogueEnv, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser } from './support/browser.ts'

const MODEL = path.resolve(import.meta.dirname, '../fixtures/models/stories260K.gguf')
let n = 0
const email = () => `models-${Date.now()}-${++n}@example.com`

let browser: TestBrowser
let ai: AiStandIn
beforeAll(async () => {
  browser = await launchBrowser()
  ai = await startAiStandIn()
})
afterAll(async () => {
  await browser?.close()
  await ai?.close()
})

async function signedIn(server: AppServer) {
  const tab = await browser.newPage()
  const chat = new ChatPage(tab.page, server.url)
  await chat.open()
  await chat.signUp(email(), 'a strong password')
  return { ...tab, chat }
}

async function chooseMore(chat: ChatPage, name: string) {
  await chat.openModeMenu()
  await chat.page.getByRole('menuitemradio', { name: new RegExp(`^${name}`) }).click()
  await chat.page.getByRole('button', { name: `Chat mode: ${name}` }).waitFor()
}

describe('providers beside the modes', () => {
  let server: AppServer
  beforeAll(async () => {
    server = await startAppServer(catalogueEnv(ai))
  })
  afterAll(() => server?.stop())

  it('Claude, Mistral and an OpenAI-compatible model each answer, named in the footer, white border', async () => {
    const { page, chat, unexpectedErrors } = await signedIn(server)
    await chat.openModeMenu()
    const menu = page.getByRole('menu')
    await menu.getByText('More models').waitFor()
    expect(await menu.innerText()).toMatch(/Claude Haiku 4\.5\s+about [\d.]+ g CO2 per reply/)
    await page.keyboard.press('Escape')

    for (const [name, text] of [
      ['Claude Haiku 4.5', 'hello claude'],
      ['Mistral Small', 'hello mistral'],
      ['Qwen2.5 7b', 'hello compatible'],
    ] as const) {
      await chooseMore(chat, name)
      await chat.send(text)
      const reply = await chat.waitForReply(text, `Echo: ${text}`)
      await chat.replyFooter(text).getByTestId('reply-model').filter({ hasText: name }).waitFor()
      expect(await chat.borderLeftColor(text)).toBe('rgb(255, 255, 255)')
      expect(await reply.getAttribute('data-model')).not.toMatch(/^(gemini|loris|chatgpt)$/)
    }
    expect(ai.requests.map((r) => r.path)).toEqual([
      '/anthropic/v1/messages',
      '/mistral/v1/chat/completions',
      '/v1/chat/completions',
    ])
    // The choice is kept: after a reload the menu still names the model.
    await page.reload()
    await page.getByRole('button', { name: 'Chat mode: Qwen2.5 7b' }).waitFor()

    // A failed reply of a chosen model is retried with that model, whatever is chosen now.
    await chooseMore(chat, 'Mistral Small')
    ai.setScenario('upstream-error')
    await chat.editMessage('hello mistral', 'hello again mistral')
    const retry = chat.replyFooter('hello again mistral').getByRole('button', { name: 'Retry' })
    await retry.waitFor()
    await chooseMore(chat, 'Claude Haiku 4.5')
    ai.reset()
    await retry.click()
    await chat.waitForReply('hello again mistral', 'Echo: hello again mistral')
    await retry.waitFor({ state: 'detached' })
    expect(ai.requests.map((r) => r.path)).toEqual(['/mistral/v1/chat/completions'])
    expect(unexpectedErrors([/502|Bad Gateway|Failed to load resource/])).toEqual([])
  })

  it('the pre-send estimate follows the text and the mode, and suggests a lower-carbon choice', async () => {
    const { page, chat, unexpectedErrors } = await signedIn(server)
    await chooseMore(chat, 'Claude Sonnet 4.5')
    const estimate = page.getByTestId('pre-send-estimate')
    await estimate.waitFor()
    const grams = async () => Number((await estimate.innerText()).replace(/[^\d.]/g, ''))
    const empty = await grams()
    await chat.composer().fill('Tell me a long story about a loris. '.repeat(30))
    await page.waitForFunction(
      (before) =>
        Number(
          document.querySelector('[data-testid="pre-send-estimate"]')?.textContent?.replace(/[^\d.]/g, ''),
        ) > before,
      empty,
    )
    const sonnet = await grams()
    // Haiku emits well under half of Sonnet: offered in one click.
    const suggestion = page.getByTestId('pre-send-suggestion')
    await suggestion.waitFor()
    await suggestion.click()
    await page.waitForFunction(
      (before) =>
        Number(
          document.querySelector('[data-testid="pre-send-estimate"]')?.textContent?.replace(/[^\d.]/g, ''),
        ) <
        before / 2,
      sonnet,
    )
    await page.getByRole('button', { name: /^Chat mode: (?!Claude Sonnet)/ }).waitFor()
    // Switching to a mode prices the same text with the mode's model.
    const suggested = await grams()
    await chat.chooseMode('Gemini')
    await page.waitForFunction(
      (before) =>
        Number(
          document.querySelector('[data-testid="pre-send-estimate"]')?.textContent?.replace(/[^\d.]/g, ''),
        ) !== before,
      suggested,
    )
    expect(await grams()).toBeGreaterThan(0)
    expect(unexpectedErrors()).toEqual([])
  })
})

describe('eco routing with the in-process engine and a vision stand-in', () => {
  let server: AppServer
  beforeAll(async () => {
    ai.reset()
    server = await startAppServer({
      ECO_ENGINE: 'on',
      ECO_MODEL_FILE: MODEL,
      ECO_MODEL_PARAMS_B: '0.00026',
      OPENAI_COMPATIBLE_ENDPOINTS: JSON.stringify([
        {
          name: 'pool',
          baseURL: ai.openaiBaseUrl,
          apiKey: 'test',
          models: [{ id: 'vision-small', vision: true, paramsB: 3, eco: true }],
        },
      ]),
    })
  })
  afterAll(() => server?.stop())

  it('an image goes to the vision model, a short text to the local engine, each footer saying why', async () => {
    const { page, chat, unexpectedErrors } = await signedIn(server)
    await page.getByRole('button', { name: 'Chat mode: Loris eco' }).waitFor()
    await chat.send('Once upon a time')
    await chat.waitForReply('Once upon a time')
    const local = chat.replyFooter('Once upon a time')
    await local
      .getByTestId('reply-routing')
      .filter({ hasText: 'short and simple: answered by the local model' })
      .waitFor()
    expect(await local.getByTestId('reply-model').innerText()).toBe('Loris eco (Stories260K)')
    expect(await local.getByTestId('reply-routing').innerText()).toMatch(
      /routing saved [\d.]+ g against Vision Small/,
    )

    const composer = new ComposerControls(page)
    await composer.upload('Upload image', 'image.png')
    await chat.send('What is in this picture?')
    await chat.waitForReply('What is in this picture?', '[image image/png 821 bytes]')
    const vision = chat.replyFooter('What is in this picture?')
    await vision.getByTestId('reply-routing').filter({ hasText: 'image: sent to a vision model' }).waitFor()
    expect(await vision.getByTestId('reply-model').innerText()).toBe('Loris eco (Vision Small)')
    expect(await chat.borderLeftColor('What is in this picture?')).toBe('rgb(34, 197, 94)')
    expect(ai.requests.map((r) => r.model)).toEqual(['vision-small'])

    // "Ask a larger model" on the local engine's reply: a new version from the vision model.
    await local.getByRole('button', { name: 'Ask a larger model' }).click()
    await chat
      .replyFooter('Once upon a time')
      .getByTestId('reply-routing')
      .filter({ hasText: 'asked for a larger model' })
      .waitFor()
    expect(await chat.versionText('Once upon a time')).toBe('2/2')
    expect(await chat.replyFooter('Once upon a time').getByTestId('reply-model').innerText()).toBe(
      'Loris eco (Vision Small)',
    )
    expect(ai.requests.map((r) => r.model)).toEqual(['vision-small', 'vision-small'])
    expect(unexpectedErrors()).toEqual([])
  })
})
