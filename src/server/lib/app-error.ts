import type { ErrorCode } from '#contract/errors.ts'
import { statusOf } from '#contract/errors.ts'

/** The one error type handlers throw; `onError` turns it into `{ code, message }`. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly details?: unknown
  readonly headers?: Record<string, string>

  constructor(
    code: ErrorCode,
    message: string,
    opts: { details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.status = statusOf(code)
    this.details = opts.details
    this.headers = opts.headers
  }
}
