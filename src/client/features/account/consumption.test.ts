import { describe, expect, it } from 'vitest'
import {
  chatEngineLabel,
  displayedCurrentModel,
  nextReset,
  readModeFlags,
  resetIsDue,
  usageTotal,
} from './consumption.ts'

const NOW = new Date('2026-05-01T12:00:00Z')
const user = (input: number, output: number, premium: { end?: string | null } | null = null) => ({
  isPremium: premium !== null,
  subscription_end_date: premium?.end ?? null,
  aiInputChars: input,
  aiOutputChars: output,
})
const gemini = { useOpenAI: false }

describe('displayedCurrentModel', () => {
  it('is GPT-3.5 Turbo whenever the OpenAI option is on', () => {
    expect(displayedCurrentModel(user(0, 0), { useOpenAI: true }, NOW)).toBe('GPT-3.5 Turbo')
    expect(displayedCurrentModel(user(900_000, 900_000, {}), { useOpenAI: true }, NOW)).toBe('GPT-3.5 Turbo')
  })

  it.each([
    [0, 'Gemini 2.5 Pro'],
    [19_999, 'Gemini 2.5 Pro'],
    [20_000, 'Gemini 2.5 Flash Lite'],
    [99_999, 'Gemini 2.5 Flash Lite'],
    [100_000, 'Free Usage Limit Exceeded'],
  ])('free user with usage %i: %s', (used, label) => {
    // Usage is input plus output characters.
    expect(displayedCurrentModel(user(used - Math.floor(used / 3), Math.floor(used / 3)), gemini, NOW)).toBe(
      label,
    )
  })

  it.each([
    [0, 'Gemini 2.5 Pro'],
    [499_999, 'Gemini 2.5 Pro'],
    [500_000, 'Gemini 2.0 Flash'],
    [999_999, 'Gemini 2.0 Flash'],
    [1_000_000, 'Premium Usage Limit Exceeded'],
  ])('premium user with usage %i: %s', (used, label) => {
    expect(displayedCurrentModel(user(used, 0, { end: '2026-06-01T00:00:00Z' }), gemini, NOW)).toBe(label)
    expect(displayedCurrentModel(user(0, used, { end: null }), gemini, NOW)).toBe(label)
  })

  it('treats a premium whose end date has passed as free', () => {
    expect(displayedCurrentModel(user(50_000, 0, { end: '2026-04-30T00:00:00Z' }), gemini, NOW)).toBe(
      'Gemini 2.5 Flash Lite',
    )
  })
})

describe('chatEngineLabel', () => {
  it('prefers ChatGPT, then the eco label, then Gemini', () => {
    expect(chatEngineLabel({ useOpenAI: true, isEcoMode: true })).toBe('ChatGPT')
    expect(chatEngineLabel({ useOpenAI: false, isEcoMode: true })).toBe('Loris eco')
    expect(chatEngineLabel({ useOpenAI: false, isEcoMode: false })).toBe('Gemini')
  })
})

describe('Next Reset', () => {
  it('is 30 days after lastAiUsageReset', () => {
    expect(nextReset({ lastAiUsageReset: '2026-04-20T08:30:00.000Z' }).toISOString()).toBe(
      '2026-05-20T08:30:00.000Z',
    )
    expect(resetIsDue({ lastAiUsageReset: '2026-04-20T08:30:00.000Z' }, NOW)).toBe(false)
    expect(resetIsDue({ lastAiUsageReset: '2026-04-01T12:00:00.000Z' }, NOW)).toBe(true)
  })

  it('sums usage', () => {
    expect(usageTotal({ aiInputChars: 1200, aiOutputChars: 34 })).toBe(1234)
  })
})

describe('readModeFlags', () => {
  const storage = (items: Record<string, string>) => ({ getItem: (k: string) => items[k] ?? null })
  it('reads the stored booleans, anything else as off', () => {
    expect(readModeFlags(storage({ 'chat-eco-mode': 'true', 'chat-use-openai': 'false' }))).toEqual({
      isEcoMode: true,
      useOpenAI: false,
    })
    expect(readModeFlags(storage({ 'chat-eco-mode': '{corrupt', 'chat-use-openai': '"yes"' }))).toEqual({
      isEcoMode: false,
      useOpenAI: false,
    })
    expect(readModeFlags(storage({}))).toEqual({ isEcoMode: false, useOpenAI: false })
  })
})
