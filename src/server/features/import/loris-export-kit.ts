// Loris exports for the import tests (the shape export/format.ts writes), with only what a test
// changes spelled out in the test.
import { strToU8 } from 'fflate'

/** One exchange of a Loris export: a complete answer to 'q', no file, dated `at`. */
export function lorisMessage(at: string, fields: Record<string, unknown> = {}) {
  return {
    content: 'q',
    response: 'a',
    status: 'complete',
    errorMessage: null,
    chatModel: 'gemini',
    provider: null,
    modelId: null,
    inputTokens: null,
    outputTokens: null,
    latencyMs: null,
    co2Impact: null,
    attachment: null,
    createdAt: at,
    completedAt: at,
    ...fields,
  }
}

/** A Loris export of one thread titled `title` holding `messages`; `thread` overrides its fields. */
export function lorisThreadExport(
  title: string,
  messages: unknown[],
  { at = new Date().toISOString(), thread = {} }: { at?: string; thread?: object } = {},
) {
  return {
    format: 'loris-export',
    version: 3,
    exportedAt: at,
    thread: {
      id: crypto.randomUUID(),
      title,
      chatModel: 'gemini',
      isFavorite: false,
      isDefault: false,
      createdAt: at,
      lastMessageAt: at,
      ...thread,
    },
    messages,
  }
}

/** An image attachment of a Loris export, its bytes at `path` in the zip. */
export const lorisPicture = (path: string, size = 1) => ({
  fileName: 'p.png',
  mimeType: 'image/png',
  kind: 'image',
  size,
  path,
})

export const jsonBytes = (value: unknown) => strToU8(JSON.stringify(value))
