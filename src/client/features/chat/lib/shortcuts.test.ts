import { describe, expect, it } from 'vitest'
import { type KeyInput, matchShortcut } from './shortcuts.ts'

const key = (k: string, o: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  inTextField: false,
  ...o,
})

describe('chat shortcuts', () => {
  it('matches the modifier of the platform', () => {
    expect(matchShortcut(key('O', { ctrlKey: true, shiftKey: true }), false)).toBe('new-chat')
    expect(matchShortcut(key('O', { metaKey: true, shiftKey: true }), true)).toBe('new-chat')
    expect(matchShortcut(key('o', { metaKey: true, shiftKey: true }), false)).toBeNull()
    expect(matchShortcut(key('k', { ctrlKey: true }), false)).toBe('search-threads')
    expect(matchShortcut(key('/', { ctrlKey: true }), false)).toBe('show-shortcuts')
  })

  it('keeps single keys for text outside text fields', () => {
    expect(matchShortcut(key('?', { shiftKey: true }), false)).toBe('show-shortcuts')
    expect(matchShortcut(key('?', { shiftKey: true, inTextField: true }), false)).toBeNull()
    expect(matchShortcut(key('['), false)).toBe('previous-version')
    expect(matchShortcut(key(']', { inTextField: true }), false)).toBeNull()
  })

  it('Esc stops, Shift+Esc focuses the message box, even from a text field', () => {
    expect(matchShortcut(key('Escape', { inTextField: true }), false)).toBe('stop')
    expect(matchShortcut(key('Escape', { shiftKey: true }), false)).toBe('focus-composer')
    expect(matchShortcut(key('Escape', { altKey: true }), false)).toBeNull()
  })
})
