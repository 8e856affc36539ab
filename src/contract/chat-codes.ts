// Codes the chat's stream and its refusals carry, without zod: the chat's first load reads them
// and must not load zod to do so (decision 044; chat-events.ts re-exports the error codes).

/** Error codes an `error` event may carry. */
export const chatErrorCodes = {
  /** The chosen mode is not available on this server; the message says why in plain words. */
  unconfigured: 'service_unavailable:provider',
  /** The model refused or failed before any text; nothing but the prompt was stored. */
  upstream: 'bad_gateway:provider',
  /** The model broke off mid-reply; the partial reply is stored as interrupted. */
  interrupted: 'bad_gateway:interrupted',
  /** The model answered with no text at all. */
  empty: 'bad_gateway:empty_reply',
  /** The reply took longer than the server allows. */
  timeout: 'bad_gateway:timeout',
  /** Something broke on our side. */
  internal: 'internal:server',
} as const
export type ChatErrorCode = (typeof chatErrorCodes)[keyof typeof chatErrorCodes]

/** The usage-limit refusal codes: answered as JSON 429 before any stream; retrying cannot help. */
export const USAGE_LIMIT_CODE = 'rate_limited:usage'
