import { describe, expect, it } from 'vitest'
import { replyTime } from './reply-time.ts'

describe('replyTime', () => {
  const now = new Date(2026, 10, 28, 15, 0)
  const time = (d: Date) => d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

  it("gives only the time for today's replies", () => {
    const at = new Date(2026, 10, 28, 6, 59)
    expect(replyTime(at.toISOString(), now)).toEqual({ text: time(at), iso: at.toISOString() })
  })

  it('adds the date for older ones, and the year when it is not this one', () => {
    const yesterday = new Date(2026, 10, 27, 6, 59)
    const text = replyTime(yesterday.toISOString(), now)?.text ?? ''
    expect(text).toContain(yesterday.toLocaleDateString([], { month: 'short', day: 'numeric' }))
    expect(text).toContain(time(yesterday))
    expect(text).not.toContain('2026')
    const lastYear = new Date(2025, 11, 31, 23, 0)
    expect(replyTime(lastYear.toISOString(), now)?.text).toContain('2025')
  })

  it('gives nothing for a missing or broken date', () => {
    expect(replyTime(null, now)).toBeNull()
    expect(replyTime('not a date', now)).toBeNull()
  })
})
