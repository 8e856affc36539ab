import { z } from 'zod'
import { MB, PARSE_LIMITS } from './attachments.ts'

// One error shape for the whole API (conventions: "errors modelled once").
// A code is `${type}:${surface}`, e.g. `not_found:thread`; the type decides the HTTP status.
export const errorTypes = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  // A request naming another host than the server's own (DNS rebinding, a misconfigured proxy).
  misdirected: 421,
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

/**
 * Why a file was refused while it was being read: the code names the limit it hit and
 * the message says it to a person. The limits themselves are PARSE_LIMITS in attachments.ts.
 */
export const fileLimitErrors = {
  'unprocessable:file_time_limit': `This file took too long to read (more than ${PARSE_LIMITS.seconds} seconds). Attach a smaller or simpler file, or paste the part you need.`,
  'unprocessable:file_memory_limit': `Reading this file needed more memory than allowed (${PARSE_LIMITS.memoryMb} MB). Attach a smaller or simpler file, or paste the part you need.`,
  'unprocessable:file_decompressed_size': `This file unpacks to more than ${PARSE_LIMITS.entryBytes / MB} MB in one part or ${PARSE_LIMITS.totalBytes / MB} MB in all, which is more than Loris reads. Attach a smaller file.`,
  'unprocessable:file_sheet_limit': `This spreadsheet has more than ${PARSE_LIMITS.sheets} sheets. Keep only the sheets you need and attach it again.`,
  'unprocessable:file_cell_limit': `This spreadsheet has more than ${PARSE_LIMITS.cells.toLocaleString('en-US')} cells. Keep only the rows you need and attach it again.`,
  'service_unavailable:file_reader_busy':
    'Loris is busy reading other files right now. Please send your message again in a moment.',
  'service_unavailable:media_busy':
    'Loris is busy decoding other recordings right now. Please try again in a moment.',
} as const satisfies Record<ErrorCode, string>
export type FileLimitCode = keyof typeof fileLimitErrors
