// A tool the operator marked as needing approval, in the browser (decision 070): the reply stops
// at the call and its step shows the name, the arguments, Approve and Deny and until when it
// waits; a reload still shows it; Approve runs the tool and the reply goes on, Deny goes on
// without it. At 1440x900 and on a phone (390x844); screenshots in .tmp/e2e-screenshots.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChatPage } from '../pages/chat-page.ts'
import { type AiStandIn, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { type McpStandIn, startMcpStandIn } from '../stand-ins/mcp.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser } from './support/browser.ts'

const shots = path.resolve(import.meta.dirname, '../../.tmp/e2e-screenshots')
let n = 0
const email = () => `approval-${Date.now()}-${++n}@example.com`
const ASKED = 'Please release Lori'
const RELEASE = `[[tool:zoo__release_animal {"name":"Lori"}]] ${ASKED}`

let browser: TestBrowser
let ai: AiStandIn
let mcp: McpStandIn
let server: AppServer
beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  browser = await launchBrowser()
  ai = await startAiStandIn()
  mcp = await startMcpStandIn()
  server = await startAppServer({
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: ai.openaiBaseUrl,
    MCP_SERVERS: JSON.stringify([{ name: 'zoo', url: mcp.url, needsApproval: ['release_animal'] }]),
  })
})
afterAll(async () => {
  await server?.stop()
  await browser?.close()
  await ai?.close()
  await mcp?.close()
})

const releases = () => mcp.calls.filter((c) => c.tool === 'release_animal').length

async function askToRelease(viewport: { width: number; height: number }, hasTouch = false) {
  const { page, unexpectedErrors } = await browser.newPage({ viewport, hasTouch })
  const chat = new ChatPage(page, server.url)
  await chat.open()
  await chat.signUp(email(), 'a strong password')
  await chat.chooseMode('ChatGPT')
  await chat.send(RELEASE)
  const step = chat.reply(ASKED).locator('[data-testid="tool-step"][data-status="awaiting-approval"]')
  await step.getByTestId('tool-approval').waitFor()
  return { page, chat, step, unexpectedErrors }
}

describe('a tool call that waits for the person', () => {
  it('shows the call with Approve and Deny, keeps it over a reload, and runs the tool on Approve', async () => {
    const before = releases()
    const { page, chat, step, unexpectedErrors } = await askToRelease({ width: 1440, height: 900 })
    expect(await step.getByText('zoo__release_animal').first().isVisible()).toBe(true)
    expect(await step.getByTestId('tool-step-args').innerText()).toContain('"name": "Lori"')
    expect(await step.getByTestId('tool-approval').innerText()).toMatch(/until \d{1,2}[:.]\d{2}.*10 minutes/)
    expect(releases()).toBe(before)
    await page.screenshot({ path: path.join(shots, 'tool-approval-1440.png') })

    // Stored, not held by this page: a reload shows the same waiting step.
    await page.reload()
    await step.getByTestId('tool-approval').waitFor()
    await step.getByRole('button', { name: 'Approve' }).click()
    await chat.waitForReply(ASKED, 'Lori was released.')
    const done = chat.reply(ASKED).getByTestId('tool-step')
    expect(await done.getAttribute('data-status')).toBe('done')
    expect(await done.getByTestId('tool-approval').count()).toBe(0)
    expect(releases()).toBe(before + 1)
    await page.screenshot({ path: path.join(shots, 'tool-approval-approved-1440.png') })
    expect(unexpectedErrors()).toEqual([])
  })

  it('goes on without the tool on Deny, on a phone', async () => {
    const before = releases()
    const { page, chat, step, unexpectedErrors } = await askToRelease({ width: 390, height: 844 }, true)
    const approve = await step.getByRole('button', { name: 'Approve' }).boundingBox()
    const deny = await step.getByRole('button', { name: 'Deny' }).boundingBox()
    // Both within the screen's width, and large enough to tap.
    for (const box of [approve, deny]) {
      expect(box).not.toBeNull()
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390)
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(32)
    }
    await page.screenshot({ path: path.join(shots, 'tool-approval-390.png') })
    await step.getByRole('button', { name: 'Deny' }).tap()
    await chat.waitForReply(ASKED, 'did not approve')
    const refused = chat.reply(ASKED).getByTestId('tool-step')
    expect(await refused.getAttribute('data-status')).toBe('refused')
    expect(releases()).toBe(before)
    await page.screenshot({ path: path.join(shots, 'tool-approval-denied-390.png') })
    expect(unexpectedErrors()).toEqual([])
  })
})
