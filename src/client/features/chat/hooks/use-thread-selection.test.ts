import { describe, expect, it } from 'vitest'
import type { Thread } from '#contract/threads.ts'
import { initialThread } from './use-thread-selection.ts'

const thread = (id: string, lastMessageAt: string, isDefault = false): Thread => ({
  id,
  title: id,
  isFavorite: false,
  isDefault,
  lastMessageAt,
  chatModel: 'gemini',
  createdAt: lastMessageAt,
})

describe('initialThread', () => {
  it('picks Default even when another thread is more recent', () => {
    const list = [thread('recent', '2026-11-22T10:00:00Z'), thread('Default', '2026-01-01T00:00:00Z', true)]
    expect(initialThread(list)?.id).toBe('Default')
  })
  it('falls back to the most recent by lastMessageAt', () => {
    const list = [
      thread('old', '2026-01-01T00:00:00Z'),
      thread('newest', '2026-11-22T10:00:00Z'),
      thread('mid', '2026-06-01T00:00:00Z'),
    ]
    expect(initialThread(list)?.id).toBe('newest')
  })
  it('gives nothing for no threads', () => {
    expect(initialThread([])).toBeUndefined()
  })
})
