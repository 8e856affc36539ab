// A refused send tells the person why, and the text stays in the composer.
import { describe, expect, it } from 'vitest'
import { SENDS_PER_MINUTE } from '../../src/server/features/chat/admission.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'

const h = chatHarnessForFile({ emailPrefix: 'limits', resetStandIn: false })

describe('refused sends keep the draft', () => {
  it('over the usage limit: the limit and its reset date in a toast, the text still in the box', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat()
    // One send of the largest message a person may write uses up the free allowance (a single
    // send may go over it); sent through the API with this browser's session.
    const big = await page.request.post(`${h.server.url}/api/messages`, {
      data: { content: 'x'.repeat(100_000), isEcoMode: false, useOpenAI: false },
      timeout: 60_000,
    })
    expect(big.status()).toBe(200)
    expect(await big.text()).toContain('"done":true')

    const text = 'Is there any allowance left?'
    const refused = chat.watchToast(/Free usage limit exceeded; resets on \d{4}-\d{2}-\d{2}/)
    await chat.send(text)
    await refused
    expect(await chat.toast('Error sending message').isVisible()).toBe(true)
    expect(await chat.composer().inputValue()).toBe(text)
    expect(await chat.exchange(text).count()).toBe(0)
    expect(unexpectedErrors([/status of 429/])).toEqual([])
  })

  it('over the per-minute send budget: how long to wait in a toast, the text still in the box', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat()
    for (let i = 0; i < SENDS_PER_MINUTE; i++) {
      const res = await page.request.post(`${h.server.url}/api/messages`, {
        data: { content: `quick message ${i}`, isEcoMode: false, useOpenAI: false },
      })
      expect(res.status()).toBe(200)
      await res.text()
    }
    const text = 'One more, please'
    const refused = chat.watchToast(
      /You are sending messages faster than Loris can answer them\. Please wait \d+ seconds/,
    )
    await chat.send(text)
    await refused
    expect(await chat.composer().inputValue()).toBe(text)
    expect(await chat.exchange(text).count()).toBe(0)
    expect(unexpectedErrors([/status of 429/])).toEqual([])
  })
})
