// The usual browser-test setup for chat features: the AI stand-in, the built server pointed at
// it, one Chromium, and a helper that opens /chat as a newly signed-up user.
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { ChatPage } from '../../pages/chat-page.ts'
import { type AiStandIn, startAiStandIn } from '../../stand-ins/ai-providers.ts'
import { type AppServer, startAppServer } from './app-server.ts'
import { launchBrowser, type TestBrowser, type TestPage } from './browser.ts'
import { reportOnFailure } from './failure-report.ts'

/** Environment that points every model provider at the stand-in. */
export function aiProviderEnv(standIn: AiStandIn): Record<string, string> {
  return {
    GEMINI_API_KEY: 'test',
    GEMINI_BASE_URL: standIn.geminiBaseUrl,
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: standIn.openaiBaseUrl,
    // The eco mode through its OpenAI-compatible endpoint (the in-process engine has its own test).
    ECO_BASE_URL: standIn.openaiBaseUrl,
    ECO_MODEL: 'loris-eco',
    // The stand-in wants a bearer token on every OpenAI-style call; Ollama would need none.
    ECO_API_KEY: 'test',
    ECO_MODEL_PARAMS_B: '0.5',
  }
}

export interface ChatHarness {
  standIn: AiStandIn
  server: AppServer
  browser: TestBrowser
  /** A fresh tab on /chat, signed up as a new user. */
  signedInChat(opts?: Parameters<TestBrowser['newPage']>[0]): Promise<TestPage & { chat: ChatPage }>
  close(): Promise<void>
}

let counter = 0

interface HarnessOptions {
  env?: Record<string, string>
  browserArgs?: string[]
  emailPrefix?: string
}

export async function startChatHarness(opts: HarnessOptions = {}): Promise<ChatHarness> {
  const standIn = await startAiStandIn()
  let server: AppServer | undefined
  let browser: TestBrowser
  try {
    server = await startAppServer({ ...aiProviderEnv(standIn), ...opts.env })
    browser = await launchBrowser(opts.browserArgs)
  } catch (err) {
    // Whatever started before the failure is stopped: nothing outlives a failed setup.
    await server?.stop().catch(() => undefined)
    await standIn.close().catch(() => undefined)
    throw err
  }
  return {
    standIn,
    server,
    browser,
    async signedInChat(pageOpts) {
      const tab = await browser.newPage(pageOpts)
      reportOnFailure(tab, server)
      const chat = new ChatPage(tab.page, server.url)
      counter += 1
      // Signed up through the API with the page's own cookie jar, then the chat opens signed in:
      // the sign-up form has its own tests (foundation.test.ts), and going through it here cost
      // every chat test a visitor's page and the dialog on a CPU-bound run.
      const res = await tab.context.request.post(`${server.url}/api/register`, {
        data: {
          email: `${opts.emailPrefix ?? 'chat'}-${Date.now()}-${counter}@example.com`,
          password: 'a strong password',
        },
      })
      if (res.status() !== 201) throw new Error(`sign-up failed: ${res.status()} ${await res.text()}`)
      await chat.open()
      await chat.userMenuButton().waitFor()
      return { ...tab, chat }
    },
    async close() {
      await browser.close()
      await server.stop()
      await standIn.close()
    },
  }
}

/**
 * The harness of a test file: started before its tests, closed after them, and the stand-in reset
 * before each test unless `resetStandIn` is false. The object answered is filled in when it has
 * started, so its fields are read in tests and hooks, never at the file's top level.
 */
export function chatHarnessForFile(opts: HarnessOptions & { resetStandIn?: boolean } = {}): ChatHarness {
  const h = {} as ChatHarness
  beforeAll(async () => {
    Object.assign(h, await startChatHarness(opts))
  })
  afterAll(() => h.close?.())
  if (opts.resetStandIn !== false) beforeEach(() => h.standIn.reset())
  return h
}
