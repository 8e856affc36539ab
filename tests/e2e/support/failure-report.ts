import { onTestFailed } from 'vitest'
import type { AppServer } from './app-server.ts'
import type { TestPage } from './browser.ts'

const SERVER_TAIL_CHARS = 3000

/**
 * Call inside a test: if the test fails (a first try that its retry then passes included), its
 * output says what the page was doing and what the server last logged. A test that fails only
 * under a full run's load is seldom caught twice.
 */
export function reportOnFailure(tab: Pick<TestPage, 'explain'>, server: Pick<AppServer, 'logs'>) {
  onTestFailed(async () => {
    console.error(
      `${await tab.explain()}\n--- server output (tail) ---\n${server.logs.join('').slice(-SERVER_TAIL_CHARS)}`,
    )
  })
}
