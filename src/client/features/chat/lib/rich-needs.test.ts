import { describe, expect, it } from 'vitest'
import { needsHighlight, needsMath } from './rich-needs.ts'

describe('what a reply needs', () => {
  it('highlights fences that name a language only', () => {
    expect(needsHighlight('Try:\n```ts\nconst a = 1\n```')).toBe(true)
    expect(needsHighlight('```c++\nint a;\n```')).toBe(true)
    expect(needsHighlight('```\nplain\n```')).toBe(false)
    expect(needsHighlight('no code, `inline` only')).toBe(false)
  })

  it('typesets $...$ and $$...$$, not prices', () => {
    expect(needsMath('Euler: $e^{i\\pi} + 1 = 0$.')).toBe(true)
    expect(needsMath('$$\\int_0^1 x\\,dx$$')).toBe(true)
    expect(needsMath('It costs $5 and $10.')).toBe(false)
    expect(needsMath('plain text')).toBe(false)
  })
})
