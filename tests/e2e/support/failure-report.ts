import { onTestFailed } from 'vitest'
import type { AppServer } from './app-server.ts'
import type { TestPage } from './browser.ts'

const SERVER_TAIL_CHARS = 3000
/** A Playwright timeout's message names the step, then lists its call log: the head is enough. */
const ERROR_LINES = 8

/**
 * Call inside a test: if the test fails (a first try that its retry then passes included), its
 * output says which step failed, what the page was doing and what the server last logged. A test
 * that fails only under a full run's load is seldom caught twice, and for a first try that its
 * retry passes Vitest prints no error at all.
 */
export function reportOnFailure(tab: Pick<TestPage, 'explain'>, server: Pick<AppServer, 'logs'>) {
  onTestFailed(async ({ task }) => {
    console.error(
      [
        `--- ${task.name}: failed on try ${(task.result?.retryCount ?? 0) + 1} ---`,
        ...(task.result?.errors ?? []).map(failedStep),
        await tab.explain(),
        `--- server output (tail) ---\n${server.logs.join('').slice(-SERVER_TAIL_CHARS)}`,
      ].join('\n'),
    )
  })
}

/** The error's first lines and where in the tests (page objects, then the test) it was thrown. */
function failedStep(error: { message?: string; stack?: string }): string {
  const message = (error.message ?? String(error)).split('\n').slice(0, ERROR_LINES)
  const where = (error.stack ?? '').split('\n').filter((line) => line.includes('/tests/'))
  return ['error:', ...message, ...where.slice(0, 3).map((line) => line.trim())].join('\n  ')
}
