import { describe, expect, it } from 'vitest'
import { borderClassFor, flagsFromModel, modelFromFlags, parseStoredFlag } from './chat-mode.ts'

describe('chat mode mapping', () => {
  it('gives chatgpt whenever the OpenAI option is on, then loris for eco, else gemini', () => {
    expect(modelFromFlags({ isEcoMode: false, useOpenAI: true })).toBe('chatgpt')
    expect(modelFromFlags({ isEcoMode: true, useOpenAI: true })).toBe('chatgpt')
    expect(modelFromFlags({ isEcoMode: true, useOpenAI: false })).toBe('loris')
    expect(modelFromFlags({ isEcoMode: false, useOpenAI: false })).toBe('gemini')
  })

  it('sets the flags from a thread chatModel, unknown values giving gemini', () => {
    expect(flagsFromModel('chatgpt')).toEqual({ isEcoMode: false, useOpenAI: true })
    expect(flagsFromModel('loris')).toEqual({ isEcoMode: true, useOpenAI: false })
    expect(flagsFromModel('gemini')).toEqual({ isEcoMode: false, useOpenAI: false })
    expect(flagsFromModel('claude')).toEqual({ isEcoMode: false, useOpenAI: false })
    expect(flagsFromModel(null)).toEqual({ isEcoMode: false, useOpenAI: false })
  })

  it('round-trips every model through its flags', () => {
    for (const model of ['gemini', 'loris', 'chatgpt'] as const)
      expect(modelFromFlags(flagsFromModel(model))).toBe(model)
  })

  it('reads only a stored true as on', () => {
    expect(parseStoredFlag('true')).toBe(true)
    expect(parseStoredFlag('false')).toBe(false)
    expect(parseStoredFlag(null)).toBe(false)
    expect(parseStoredFlag('yes')).toBe(false)
    expect(parseStoredFlag('{')).toBe(false)
  })

  it('colours the reply border by model', () => {
    expect(borderClassFor('chatgpt')).toContain('#000000')
    expect(borderClassFor('loris')).toContain('#22c55e')
    expect(borderClassFor('gemini')).toContain('#ffffff')
  })
})
