import { describe, expect, it } from 'vitest'
import { decodeNoticeHeader, encodeNoticeHeader } from './attachments.ts'

describe('attachment notice header', () => {
  it('round-trips a sentence in any script as visible ASCII a header can carry', () => {
    const notice =
      'rapport-été-日本語-🦥.pdf is long: only the first 60,000 of its 72,807 characters were read.'
    const encoded = encodeNoticeHeader(notice)
    expect(encoded).toMatch(/^[\x21-\x7e]+$/)
    expect(() => new Headers({ 'x-loris-attachment-notice': encoded })).not.toThrow()
    expect(decodeNoticeHeader(encoded)).toBe(notice)
  })

  it('survives a lone surrogate in a file name', () => {
    expect(decodeNoticeHeader(encodeNoticeHeader('bad\uD800name.txt is long'))).toBe(
      'bad\uFFFDname.txt is long',
    )
  })

  it('reads a missing or broken header as no notice', () => {
    expect(decodeNoticeHeader(null)).toBeNull()
    expect(decodeNoticeHeader('%E0%A4%A')).toBeNull()
  })
})
