// An API test file's app with Gemini answered by the loopback AI stand-in: both started before
// the file's tests, the stand-in reset before each test (normal scenario, nothing recorded), both
// closed after. Read `ai` and `t` inside tests and hooks (they exist once beforeAll has run).
// `env` adds to Gemini's settings, from the stand-in's addresses (ChatGPT, an eco endpoint...);
// `opts` are the test app's (its database in a worker thread).
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { type AiStandIn, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.ts'

export interface AiTestApp {
  ai: AiStandIn
  t: TestApp
}

export function setUpAiTestApp(
  env: (ai: AiStandIn) => Record<string, string> = () => ({}),
  opts: TestAppOptions = {},
): AiTestApp {
  const app = {} as AiTestApp
  beforeAll(async () => {
    app.ai = await startAiStandIn()
    app.t = await createTestApp(
      {
        GEMINI_API_KEY: 'test',
        GEMINI_BASE_URL: app.ai.geminiBaseUrl,
        ...env(app.ai),
      },
      {},
      opts,
    )
  })
  afterAll(async () => {
    await app.t?.close()
    await app.ai?.close()
  })
  beforeEach(() => app.ai.reset())
  return app
}
