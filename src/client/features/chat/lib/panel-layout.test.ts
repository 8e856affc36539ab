import { describe, expect, it } from 'vitest'
import { readThreadsWidth, saveThreadsWidth } from './panel-layout.ts'

const store = (v: string | null) => ({ getItem: () => v })

describe('remembered thread panel width', () => {
  it('reads a width within the limits, 0 when collapsed, else the default', () => {
    expect(readThreadsWidth(store('32.5'))).toBe(32.5)
    expect(readThreadsWidth(store('0'))).toBe(0)
    expect(readThreadsWidth(store('80'))).toBe(25)
    expect(readThreadsWidth(store('nonsense'))).toBe(25)
    expect(readThreadsWidth(store(null))).toBe(25)
    expect(readThreadsWidth(null)).toBe(25)
  })

  it('saves a rounded width', () => {
    const saved: string[] = []
    saveThreadsWidth({ setItem: (_k, v) => saved.push(v) }, 27.4567)
    expect(saved).toEqual(['27.5'])
  })
})
