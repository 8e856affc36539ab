import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { chatBundleSize, deferredPackagesIn, isDevelopmentBuild, landingBundleSize } from './bundle-size.mjs'

const dir = mkdtempSync(path.join(tmpdir(), 'loris-bundle-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function fixture(files: Record<string, string>) {
  const root = mkdtempSync(path.join(dir, 'client-'))
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true })
    writeFileSync(path.join(root, name), content)
  }
  return root
}

// Minified shapes as Vite/Rolldown writes them.
const files = {
  'index.html':
    '<script type="module" crossorigin src="/assets/index-A.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/shared-B.js">\n<link rel="stylesheet" crossorigin href="/assets/index-C.css">',
  'assets/index-A.js':
    'import{a as e}from"./shared-B.js";const l=()=>import("./landing-page-D.js"),c=()=>import("./chat-page-E.js");e(l,c);',
  'assets/shared-B.js': 'export const a=(...x)=>x;',
  'assets/landing-page-D.js': 'import{a as e}from"./shared-B.js";import"./icon-F.js";export default e;',
  'assets/icon-F.js': 'export{};',
  'assets/chat-page-E.js':
    'import"./huge-G.js";import"./app-J.js";const r=()=>import("./rich-markdown-I.js");export default r;',
  // The page shell's modules, in the chunk the chat page imports (build/route-chunks.ts).
  'assets/app-J.js': 'import{a as e}from"./shared-B.js";export default e;',
  'assets/rich-markdown-I.js': 'katex'.repeat(1000),
  'assets/huge-G.js': 'x'.repeat(100_000),
  'assets/index-C.css': 'body{color:red}',
}

describe('landingBundleSize', () => {
  it('counts the entry, its preloads, the landing chunk and their static imports, not lazy chunks', () => {
    const report = landingBundleSize(fixture(files))
    expect(report.js.map((f) => f.file).sort()).toEqual([
      'assets/icon-F.js',
      'assets/index-A.js',
      'assets/landing-page-D.js',
      'assets/shared-B.js',
    ])
    expect(report.totalJsGzip).toBe(report.js.reduce((n, f) => n + f.gzip, 0))
    expect(report.css.map((f) => f.file)).toEqual(['assets/index-C.css'])
  })

  it('measures /chat: its page chunk and what it imports, the shell included, not what a reply loads lazily', () => {
    const report = chatBundleSize(fixture(files))
    expect(report.js.map((f) => f.file).sort()).toEqual([
      'assets/app-J.js',
      'assets/chat-page-E.js',
      'assets/huge-G.js',
      'assets/index-A.js',
      'assets/shared-B.js',
    ])
  })

  it("names the deferred packages /chat's first load holds, by the chunks' source maps", () => {
    const map = (sources: string[]) => JSON.stringify({ version: 3, sources, mappings: '' })
    const clean = fixture({
      ...files,
      'assets/huge-G.js.map': map([
        '../../node_modules/@tanstack/query-core/build/modern/index.js',
        '../../src/client/x.ts',
      ]),
      // A lazy chunk may hold them: it is not part of the first load.
      'assets/rich-markdown-I.js.map': map(['../../node_modules/react-markdown/lib/index.js']),
    })
    expect(deferredPackagesIn(chatBundleSize(clean))).toEqual([])
    const leaked = fixture({
      ...files,
      'assets/huge-G.js.map': map([
        '../../node_modules/react-markdown/lib/index.js',
        '../../node_modules/remark-gfm/lib/index.js',
        '../../node_modules/micromark-core-commonmark/lib/x.js',
        '../../node_modules/zod/v4/core/core.js',
      ]),
    })
    expect(deferredPackagesIn(chatBundleSize(leaked))).toEqual([
      'micromark-core-commonmark (assets/huge-G.js)',
      'react-markdown (assets/huge-G.js)',
      'remark-gfm (assets/huge-G.js)',
      'zod (assets/huge-G.js)',
    ])
  })

  it('tells a development build apart', () => {
    expect(isDevelopmentBuild(fixture(files))).toBe(false)
    expect(isDevelopmentBuild(fixture({ ...files, 'assets/jsx-dev-runtime-H.js': '' }))).toBe(true)
  })
})
