// The streaming hot loop awaits a few promises per token: with an AsyncLocalStorage in use, Node 20
// tracks every promise of the process through its promise hooks (measured on the load bench: the
// hooks cost as much as reading the chunks, and raised the added per-token p99 at 500 streams).
// So the server passes what it needs explicitly (the wire capture by the call's abort signal, the
// transcription sender as an argument) and no server module may bring async context back.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'

const server = import.meta.dirname

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return sources(file)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : []
  })
}

it('uses no AsyncLocalStorage or async hooks in the server', () => {
  const files = sources(server)
  expect(files.length).toBeGreaterThan(100)
  const offenders = files.filter((file) =>
    /\bnew AsyncLocalStorage\b|['"](node:)?async_hooks['"]|\bcreateHook\(/.test(readFileSync(file, 'utf8')),
  )
  expect(offenders.map((file) => path.relative(server, file))).toEqual([])
})
