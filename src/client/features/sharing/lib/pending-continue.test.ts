import { describe, expect, it } from 'vitest'
import { parsePendingContinue } from './pending-continue.ts'

const NOW = 1_800_000_000_000
const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde'

describe('parsePendingContinue', () => {
  it('reads a click made within the last 10 minutes', () => {
    expect(parsePendingContinue(JSON.stringify({ token: TOKEN, at: NOW - 9 * 60_000 }), NOW)).toBe(TOKEN)
  })
  it.each([
    ['nothing', null],
    ['an empty string', ''],
    ['not JSON', '{token'],
    ['null', 'null'],
    ['no token', JSON.stringify({ at: NOW })],
    ['an empty token', JSON.stringify({ token: '', at: NOW })],
    ['no time', JSON.stringify({ token: TOKEN })],
    ['a click 10 minutes old', JSON.stringify({ token: TOKEN, at: NOW - 10 * 60_000 })],
    ['a click in the future', JSON.stringify({ token: TOKEN, at: NOW + 60_000 })],
  ])('gives null for %s', (_name, raw) => {
    expect(parsePendingContinue(raw, NOW)).toBeNull()
  })
})
