import { z } from 'zod'

// One error shape for the whole API (conventions: "errors modelled once").
// A code is `${type}:${surface}`, e.g. `not_found:thread`; the type decides the HTTP status.
export const errorTypes = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  service_unavailable: 503,
} as const

export type ErrorType = keyof typeof errorTypes
export type ErrorCode = `${ErrorType}:${string}`

/**
 * Every non-2xx JSON body. `error` repeats `message` because the spec's client reads `error`
 * (spec section 7); `details` carries validation issues when there are any.
 */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  error: z.string(),
  details: z.unknown().optional(),
})
export type ErrorBody = z.infer<typeof errorBodySchema>

export function statusOf(code: ErrorCode): number {
  const type = code.split(':')[0] as ErrorType
  return errorTypes[type] ?? 500
}
