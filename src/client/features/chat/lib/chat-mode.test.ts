import { describe, expect, it } from 'vitest'
import {
  borderClassFor,
  flagsFromModel,
  modelFromFlags,
  NO_MODE_REASON,
  parseStoredFlag,
  resolveMode,
  sendBlockedReason,
} from './chat-mode.ts'

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

describe('the mode a send uses', () => {
  const on = { available: true, reason: null }
  const off = (what: string) => ({ available: false, reason: `${what} is not available on this server` })
  const ecoOnly = {
    modes: { gemini: off('Gemini'), loris: on, chatgpt: off('ChatGPT') },
    defaultChatModel: 'loris' as const,
  }
  const none = {
    modes: { gemini: off('Gemini'), loris: off('The Loris eco model'), chatgpt: off('ChatGPT') },
    defaultChatModel: null,
  }

  it('keeps a stored mode the server serves, else takes the default; none stored takes the default', () => {
    expect(resolveMode('loris', ecoOnly)).toBe('loris')
    expect(resolveMode('gemini', ecoOnly)).toBe('loris')
    expect(resolveMode(null, ecoOnly)).toBe('loris')
    expect(resolveMode('chatgpt', none)).toBe('chatgpt')
    expect(resolveMode(null, undefined)).toBe('gemini')
  })

  it('blocks a send with the reason, in plain words, when the mode is unavailable', () => {
    expect(sendBlockedReason('loris', ecoOnly)).toBeNull()
    expect(sendBlockedReason('gemini', ecoOnly)).toBe('Gemini is not available on this server')
    expect(sendBlockedReason('gemini', none)).toBe(NO_MODE_REASON)
    expect(sendBlockedReason('gemini', undefined)).toBeNull()
  })
})
