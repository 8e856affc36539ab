// The budget for /chat on phones, counted on the built app rather than timed: before any
// message exists the chat loads no markdown renderer (nor highlighting, math, the thread list's
// virtualizer or the desktop's panels) and stays under CHAT_JS_BUDGET, in at most
// CHAT_FILES_BUDGET files, each named in the chat's HTML (decision 044); nothing of the operator's
// console is in it or in the landing page's load (decision 063). The browser files build
// the app once (global-setup.ts); this one reads what they drive.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHAT_ROUTE_SOURCES, chatHtml, readManifest, staticChunks } from '#server/lib/route-preloads.ts'
import {
  CHAT_FILES_BUDGET,
  CHAT_JS_BUDGET,
  chatBundleSize,
  clientBuildDir as clientDir,
  deferredPackagesIn,
  kb,
  LANDING_JS_BUDGET,
  landingBundleSize,
} from '../../scripts/bundle-size.mjs'

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

  it(`comes in at most ${CHAT_FILES_BUDGET} files, every one named in the chat's HTML`, () => {
    expect(chat.js.length).toBeLessThanOrEqual(CHAT_FILES_BUDGET)
    const manifest = readManifest(clientDir)
    if (!manifest) throw new Error('the build wrote no manifest')
    const html = chatHtml(
      readFileSync(path.join(clientDir, 'index.html'), 'utf8'),
      staticChunks(manifest, CHAT_ROUTE_SOURCES),
      { signedIn: true, threadId: null },
    )
    expect(chat.js.map((f) => f.file).filter((file) => !html.includes(`/${file}"`))).toEqual([])
  })

  it("holds nothing of the operator's console, and neither does the landing page", () => {
    const landing = landingBundleSize(clientDir)
    expect(landing.js.every((f) => f.sources.length > 0)).toBe(true)
    const admin = (files: { file: string; sources: string[] }[]) =>
      files.flatMap((f) =>
        f.sources.filter((s) => s.includes('features/admin/')).map((s) => `${f.file}: ${s}`),
      )
    expect(admin(chat.js)).toEqual([])
    expect(admin(landing.js)).toEqual([])
    // The console's own chunk is named so by its source map: the check above cannot pass blind.
    const manifest = readManifest(clientDir)
    const chunk = Object.entries(manifest ?? {}).find(([src]) => src.endsWith('app/routes/admin-page.tsx'))
    if (!chunk) throw new Error('the build has no chunk for the console')
    const map = JSON.parse(readFileSync(path.join(clientDir, `${chunk[1].file}.map`), 'utf8')) as {
      sources: string[]
    }
    expect(map.sources.some((s) => s.includes('features/admin/'))).toBe(true)
  })

  it('is not loaded by the landing page, nor by the toaster every page loads after it', () => {
    const manifest = readManifest(clientDir)
    if (!manifest) throw new Error('the build wrote no manifest')
    // The toaster's chunk and what it imports, by the manifest, as the chat's HTML reads it.
    const toaster = staticChunks(manifest, ['components/ui/toaster.tsx'])
    expect(toaster.length).toBeGreaterThan(1)
    const landing = landingBundleSize(clientDir).js.map((f) => f.file)
    const chatOnly = chat.js.map((f) => f.file).filter((file) => /\/(chat|app)-/.test(file))
    expect(chatOnly.length).toBeGreaterThanOrEqual(2)
    expect([...landing, ...toaster].filter((file) => chatOnly.includes(file))).toEqual([])
  })
})
