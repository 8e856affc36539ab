// The conversation through the real server and the AI stand-in: the pre-auth draft, modes and
// their border colours, a failing model, Stop, and a reload while a reply is being written.
import { describe, expect, it } from 'vitest'
import { ChatPage } from '../pages/chat-page.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'

const h = chatHarnessForFile({ emailPrefix: 'chat', resetStandIn: false })
const password = 'a strong password'
let n = 0
const email = () => `chat-${Date.now()}-${++n}@example.com`

const signedInChat = () => h.signedInChat()

describe('chat', () => {
  it('keeps a visitor message through sign-up, then sends and streams it', async () => {
    const { page, unexpectedErrors } = await h.browser.newPage()
    const chat = new ChatPage(page, h.server.url)
    // The return from Google sign-in lands here; the parameter is stripped from the URL.
    await chat.open('?auth=google')
    await page.waitForURL(`${h.server.url}/chat`)
    expect(await page.getByText('Loris is ready to help').isVisible()).toBe(true)
    expect(await page.getByText('Ask away and start making a positive impact').isVisible()).toBe(true)

    await chat.chooseMode('Loris eco')
    await chat.send('What is a **carbon** budget?')
    await chat.dialog().waitFor()
    // The draft waits in session storage with its mode while the visitor signs up.
    const stored = await page.evaluate(() => sessionStorage.getItem('pending-chat-message'))
    expect(JSON.parse(stored ?? 'null')).toEqual({
      message: 'What is a **carbon** budget?',
      isEcoMode: true,
      useOpenAI: false,
    })
    await chat.fillCredentials('Sign up', email(), password)

    const reply = await chat.waitForReply('What is a carbon budget?', 'Echo: What is a carbon budget?')
    expect(await reply.getAttribute('data-model')).toBe('loris')
    // Rendered as markdown on the user side.
    const bubble = chat.exchange('What is a carbon budget?').getByTestId('user-message')
    expect(await bubble.locator('strong', { hasText: 'carbon' }).count()).toBe(1)
    expect(await chat.composer().inputValue()).toBe('')
    expect(await page.evaluate(() => sessionStorage.getItem('pending-chat-message'))).toBeNull()
    expect(unexpectedErrors()).toEqual([])
  })

  it('colours each reply border by its model and remembers the mode', async () => {
    const { page, chat, unexpectedErrors } = await signedInChat()
    await chat.chooseMode('ChatGPT')
    await chat.send('Hello from ChatGPT mode')
    await chat.waitForReply('Hello from ChatGPT mode')
    expect(await chat.borderLeftColor('Hello from ChatGPT mode')).toBe('rgb(0, 0, 0)')

    await chat.chooseMode('Loris eco')
    await chat.send('Hello from eco mode')
    await chat.waitForReply('Hello from eco mode')
    expect(await chat.borderLeftColor('Hello from eco mode')).toBe('rgb(34, 197, 94)')

    await chat.chooseMode('Gemini')
    await chat.send('Hello from Gemini mode')
    await chat.waitForReply('Hello from Gemini mode')
    expect(await chat.borderLeftColor('Hello from Gemini mode')).toBe('rgb(255, 255, 255)')
    expect(h.standIn.requests.some((r) => r.provider === 'openai')).toBe(true)

    await chat.chooseMode('ChatGPT')
    await page.reload()
    await page.getByRole('button', { name: 'Chat mode: ChatGPT' }).waitFor()
    expect(
      await page.evaluate(() => [
        localStorage.getItem('chat-eco-mode'),
        localStorage.getItem('chat-use-openai'),
      ]),
    ).toEqual(['false', 'true'])
    expect(unexpectedErrors()).toEqual([])
  })

  it('shows the error toast and puts the text back when the model fails', async () => {
    const { chat, unexpectedErrors } = await signedInChat()
    const text = 'This will fail [[scenario:upstream-error]]'
    await chat.send(text)
    await chat.toast('Error sending message').waitFor({ timeout: 30_000 })
    expect(await chat.composer().inputValue()).toBe(text)
    // The previous messages are back: no exchange for the failed send.
    expect(await chat.exchange('This will fail').count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it('Stop keeps what arrived, also after a reload', async () => {
    const { page, chat, unexpectedErrors } = await signedInChat()
    const text = 'Please stop me [[scenario:slow]]'
    await chat.send(text)
    await chat.reply('Please stop me').filter({ hasText: 'Echo:' }).waitFor()
    await chat.stop()
    await chat.waitForReply('Please stop me', 'Reply stopped')
    const kept = await chat.replyText('Please stop me')
    expect(kept).toContain('Echo: Please')
    expect(kept).not.toContain('while it is arriving.')
    await chat.sendButton().waitFor()

    await page.reload()
    await chat.waitForReply('Please stop me', 'Reply stopped')
    expect(await chat.replyText('Please stop me')).toBe(kept)
    expect(unexpectedErrors()).toEqual([])
  })

  it('after a reload mid-reply, the rest of the reply appears as it is written', async () => {
    const { page, chat, unexpectedErrors } = await signedInChat()
    await chat.send('Reload during this [[scenario:slow]]')
    await chat.reply('Reload during this').filter({ hasText: 'Echo:' }).waitFor()
    await page.reload()
    // Still being written: the Stop button stands for it until the reply ends.
    await chat.exchange('Reload during this').waitFor()
    const reply = await chat.waitForReply('Reload during this', 'while it is arriving.')
    expect(await reply.textContent()).toContain('Echo: Reload during this')
    await chat.sendButton().waitFor()
    expect(unexpectedErrors()).toEqual([])
  })
})
