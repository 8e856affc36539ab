import { describe, expect, it } from 'vitest'
import { parsePendingDraft } from './pending-draft.ts'

describe('parsePendingDraft', () => {
  it('reads a stored draft with its mode', () => {
    expect(parsePendingDraft('{"message":"Hello","isEcoMode":true,"useOpenAI":false}')).toEqual({
      message: 'Hello',
      isEcoMode: true,
      useOpenAI: false,
    })
  })
  it('gives null when nothing is stored', () => {
    expect(parsePendingDraft(null)).toBeNull()
    expect(parsePendingDraft('')).toBeNull()
  })
  it.each([
    ['not JSON', '{message'],
    ['not an object', '"Hello"'],
    ['null', 'null'],
    ['no message', '{"isEcoMode":false,"useOpenAI":false}'],
    ['a blank message', '{"message":"   ","isEcoMode":false,"useOpenAI":false}'],
    ['a flag that is not a boolean', '{"message":"Hi","isEcoMode":"yes","useOpenAI":false}'],
    ['a missing flag', '{"message":"Hi","isEcoMode":false}'],
  ])('discards %s', (_name, raw) => {
    expect(parsePendingDraft(raw)).toBeNull()
  })
})
