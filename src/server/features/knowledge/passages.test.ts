import { describe, expect, it } from 'vitest'
import { anyWordQuery, PASSAGE_CHARS, splitPassages } from './passages.ts'

describe('splitPassages', () => {
  it('gathers whole paragraphs up to the passage size, in order, losing no text', () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'word '.repeat(30).trim()}.`)
    const passages = splitPassages(paragraphs.join('\n\n'))
    expect(passages.length).toBeGreaterThan(1)
    for (const p of passages) expect(p.length).toBeLessThanOrEqual(PASSAGE_CHARS)
    expect(passages.join('\n\n')).toBe(paragraphs.join('\n\n'))
  })

  it('cuts a paragraph longer than a passage at sentence ends', () => {
    const long = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} says very little.`).join(' ')
    const passages = splitPassages(long)
    expect(passages.length).toBeGreaterThan(1)
    for (const p of passages) {
      expect(p.length).toBeLessThanOrEqual(PASSAGE_CHARS)
      expect(p.endsWith('.')).toBe(true)
    }
  })
})

describe('anyWordQuery', () => {
  it('matches any telling word, common words and punctuation left out', () => {
    expect(anyWordQuery('How many animals were in the quokka colony?')).toBe(
      'many | animals | quokka | colony',
    )
  })

  it('is null when nothing is left to match', () => {
    expect(anyWordQuery('what is the?! ')).toBeNull()
  })

  it('never lets tsquery syntax through (only letters and digits)', () => {
    expect(anyWordQuery("a & b | c:* !d 'e' (f)")).toBeNull()
    expect(anyWordQuery("don't x2 & éléphant")).toBe('don | x2 | éléphant')
  })
})
