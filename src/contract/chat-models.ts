// The chat modes (spec section 4), without zod: the composer's mode menu checks a choice against
// them in the chat's first load (decision 044; config.ts builds its schema from them).
export const CHAT_MODELS = ['gemini', 'loris', 'chatgpt'] as const
export type ChatModel = (typeof CHAT_MODELS)[number]

export function isChatModel(value: string): value is ChatModel {
  return (CHAT_MODELS as readonly string[]).includes(value)
}
