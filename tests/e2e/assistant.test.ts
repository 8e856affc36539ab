// The assistant set up once: custom instructions reach the model (read from the AI stand-in's
// recorded requests) and can be turned off; projects hold threads and answer from their files'
// passages; a temporary chat leaves nothing stored.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AccountPage } from '../pages/account-page.ts'
import { type ChatHarness, startChatHarness } from './support/chat-harness.ts'

let h: ChatHarness
beforeAll(async () => {
  h = await startChatHarness({ emailPrefix: 'assistant' })
})
afterAll(() => h?.close())
beforeEach(() => h.standIn.reset())

const desktop = { viewport: { width: 1280, height: 800 } }

/** The system prompt the model was last sent (Gemini's wire shape). */
function lastSystem(): string {
  const body = h.standIn.requests.at(-1)?.body as { systemInstruction?: { parts?: { text: string }[] } }
  return (body?.systemInstruction?.parts ?? []).map((p) => p.text).join('')
}

describe('custom instructions', () => {
  it('are written in Settings > Account, reach the model, and stop when turned off', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat(desktop)
    const account = new AccountPage(page, h.server.url)
    await account.open('account')
    const card = page.getByTestId('custom-instructions')
    await card.getByLabel('What should Loris know about you?').fill('I keep bees on a rooftop in Ghent.')
    await card.getByLabel('How should Loris answer?').fill('Answer like a ship captain.')
    await card.getByRole('button', { name: 'Save instructions' }).click()
    await chat.toast('Instructions saved').waitFor()

    await chat.open()
    await chat.send('How are my bees?')
    await chat.waitForReply('How are my bees?', 'Echo:')
    expect(lastSystem()).toContain('I keep bees on a rooftop in Ghent.')
    expect(lastSystem()).toContain('Answer like a ship captain.')

    await account.open('account')
    await card.getByLabel('Use my instructions').uncheck()
    await card.getByRole('button', { name: 'Save instructions' }).click()
    await chat.toast('Instructions saved').waitFor()
    await chat.open()
    await chat.send('And now?')
    await chat.waitForReply('And now?', 'Echo:')
    expect(lastSystem()).not.toContain('bees')
    expect(unexpectedErrors()).toEqual([])
  })
})
