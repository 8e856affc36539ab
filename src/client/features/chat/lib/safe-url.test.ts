import { describe, expect, it } from 'vitest'
import { safeUrl } from './safe-url.ts'

describe('safeUrl', () => {
  it.each([
    'https://example.com/a?b=c',
    'http://example.com',
    'irc://irc.libera.chat/loris',
    'ircs://irc.libera.chat/loris',
    'mailto:hello@example.com',
    'xmpp:someone@example.com',
    'HTTPS://EXAMPLE.COM',
  ])('keeps %s', (url) => {
    expect(safeUrl(url)).toBe(url)
  })
  it.each(['javascript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', 'file:///etc/passwd', 'ftp://x'])(
    'drops %s',
    (url) => {
      expect(safeUrl(url)).toBe('')
    },
  )
  it('keeps relative links and fragments', () => {
    expect(safeUrl('/chat')).toBe('/chat')
    expect(safeUrl('#notes')).toBe('#notes')
    expect(safeUrl('docs/a:b')).toBe('docs/a:b')
  })
})
