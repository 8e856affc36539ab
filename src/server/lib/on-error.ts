import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { z } from 'zod'
import type { ErrorBody } from '#contract/errors.ts'
import { AppError } from './app-error.ts'
import type { AppEnv } from './context.ts'

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return details === undefined
    ? { code, message, error: message }
    : { code, message, error: message, details }
}

/** Maps anything thrown to the one error shape; unknown errors are logged, never leaked. */
export function toErrorResponse(err: unknown, c: Context<AppEnv>): Response {
  if (err instanceof AppError) {
    if (err.headers) for (const [k, v] of Object.entries(err.headers)) c.header(k, v)
    return c.json(errorBody(err.code, err.message, err.details), err.status as ContentfulStatusCode)
  }
  if (err instanceof z.ZodError) {
    return c.json(errorBody('bad_request:input', err.issues[0]?.message ?? 'Invalid input', err.issues), 400)
  }
  if (err instanceof HTTPException) {
    const status = err.status
    if (status === 413)
      return c.json(errorBody('payload_too_large:body', 'The request body is too large'), 413)
    if (status === 400) {
      const msg = /json/i.test(err.message)
        ? 'The request body is not valid JSON'
        : err.message || 'Bad request'
      return c.json(errorBody('bad_request:body', msg), 400)
    }
    if (status < 500)
      return c.json(errorBody(`http_${status}:request`, err.message || 'Request failed'), status)
  }
  const log = c.get('log')
  if (log) log.error({ err }, 'unhandled error')
  else console.error(err)
  return c.json(errorBody('internal:server', 'Something went wrong on our side. Please try again.'), 500)
}
