// The pre-auth draft (spec sections 3 and 4): a visitor's message kept in session storage while
// they sign in, sent once they are. Anything unreadable is thrown away.
import { sessionStore as storage } from '#client/lib/session-store.ts'

export const PENDING_DRAFT_KEY = 'pending-chat-message'

export interface PendingDraft {
  message: string
  isEcoMode: boolean
  useOpenAI: boolean
}

/** The stored draft, or null when there is none or it is corrupt. */
export function parsePendingDraft(raw: string | null): PendingDraft | null {
  if (!raw) return null
  try {
    const value: unknown = JSON.parse(raw)
    if (!value || typeof value !== 'object') return null
    const { message, isEcoMode, useOpenAI } = value as Record<string, unknown>
    if (typeof message !== 'string' || !message.trim()) return null
    if (typeof isEcoMode !== 'boolean' || typeof useOpenAI !== 'boolean') return null
    return { message, isEcoMode, useOpenAI }
  } catch {
    return null
  }
}

export function savePendingDraft(draft: PendingDraft) {
  storage()?.setItem(PENDING_DRAFT_KEY, JSON.stringify(draft))
}

/** Reads and removes the draft (corrupt data is removed too). */
export function takePendingDraft(): PendingDraft | null {
  const store = storage()
  if (!store) return null
  const raw = store.getItem(PENDING_DRAFT_KEY)
  store.removeItem(PENDING_DRAFT_KEY)
  return parsePendingDraft(raw)
}

export function hasPendingDraft(): boolean {
  return Boolean(storage()?.getItem(PENDING_DRAFT_KEY))
}
