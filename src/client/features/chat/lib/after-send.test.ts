import { describe, expect, it } from 'vitest'
import { afterSend } from './after-send.ts'

describe('afterSend', () => {
  it('plants a tree when the count is even', () => {
    expect(afterSend(1, false).plantTree).toBe(false)
    expect(afterSend(2, false).plantTree).toBe(true)
    expect(afterSend(3, false).plantTree).toBe(false)
    expect(afterSend(10, true).plantTree).toBe(true)
  })
  it('prompts a free user to upgrade at exactly 5', () => {
    expect(afterSend(4, false).showUpgrade).toBe(false)
    expect(afterSend(5, false).showUpgrade).toBe(true)
    expect(afterSend(6, false).showUpgrade).toBe(false)
  })
  it('never prompts a premium user', () => {
    expect(afterSend(5, true).showUpgrade).toBe(false)
  })
  it('does nothing without a count', () => {
    expect(afterSend(undefined, false)).toEqual({ plantTree: false, showUpgrade: false })
    expect(afterSend(0, false)).toEqual({ plantTree: false, showUpgrade: false })
  })
})
