import { describe, expect, it } from 'vitest'
import { returnPathFrom } from './return-path.ts'

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde'
const THREAD = '0b9f2c1e-6a53-4d1e-9f3a-2c4b5d6e7f80'

describe('returnPathFrom', () => {
  it.each([['/chat'], ['/chat/new'], [`/chat/${THREAD}`], [`/share/${TOKEN}`], ['/admin']])(
    'keeps %s',
    (next) => {
      expect(returnPathFrom(next)).toBe(next)
    },
  )

  it.each([
    [undefined],
    [''],
    ['https://evil.example'],
    ['https://evil.example/share/x'],
    ['//evil.example'],
    ['//evil.example/chat'],
    ['/\\evil.example'],
    ['/\\/evil.example'],
    ['\\\\evil.example'],
    ['javascript:alert(1)'],
    ['/account?x'],
    ['/account'],
    ['/admin?tab=audit'],
    ['/admin/'],
    ['/admin\n'],
    ['/chat?x=1'],
    ['/chat#x'],
    ['/chat/'],
    ['/chat/../account'],
    ['/chat/not-a-thread'],
    ['/chat\n//evil.example'],
    [' /chat'],
    ['/share/short'],
    [`/share/${TOKEN}?x`],
    [`/share/${TOKEN}/../../evil`],
    [`/share/${TOKEN}\n`],
    [`//share/${TOKEN}`],
    ['/%2F%2Fevil.example'],
  ])('falls back to /chat for %j', (next) => {
    expect(returnPathFrom(next)).toBe('/chat')
  })
})
