// Issue 13's budget for /chat on phones, counted on the built app rather than timed: before any
// message exists the chat loads no markdown renderer (nor highlighting, math, the thread list's
// virtualizer or the desktop's panels) and stays under CHAT_JS_BUDGET. The browser files build
// the app once (global-setup.ts); this one reads what they drive.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CHAT_JS_BUDGET,
  chatBundleSize,
  deferredPackagesIn,
  kb,
  LANDING_JS_BUDGET,
  landingBundleSize,
} from '../../scripts/bundle-size.mjs'

const clientDir = path.resolve(import.meta.dirname, '../..', process.env.LORIS_BUILD_DIR ?? 'dist', 'client')

describe('the JavaScript /chat loads first', () => {
  const chat = chatBundleSize(clientDir)

  it('holds no markdown renderer or other code only a conversation or thread list needs', () => {
    // The source maps are what tell the packages apart: without them this test would pass blind.
    expect(chat.js.every((f) => f.sources.length > 0)).toBe(true)
    expect(deferredPackagesIn(chat)).toEqual([])
  })

  it(`stays under ${kb(CHAT_JS_BUDGET)} gzip, and the landing page under ${kb(LANDING_JS_BUDGET)}`, () => {
    expect(chat.totalJsGzip).toBeLessThanOrEqual(CHAT_JS_BUDGET)
    expect(landingBundleSize(clientDir).totalJsGzip).toBeLessThanOrEqual(LANDING_JS_BUDGET)
  })
})
