import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// LORIS_BUILD_DIR lets parallel checkouts of the tests build side by side (default: dist).
export const buildDir = path.resolve(root, process.env.LORIS_BUILD_DIR ?? 'dist')
export const stampFile = path.join(buildDir, '.build-inputs')

const INPUTS = [
  'src',
  'public',
  'package-lock.json',
  'vite.config.ts',
  'build',
  'scripts/build.mjs',
  'scripts/pglite-template.ts',
]

function addTree(hash, p) {
  if (!existsSync(p)) return
  if (statSync(p).isDirectory()) {
    for (const name of readdirSync(p).sort()) {
      if (name.endsWith('.test.ts') || name.endsWith('.test.tsx')) continue
      addTree(hash, path.join(p, name))
    }
    return
  }
  hash.update(path.relative(root, p))
  hash.update(readFileSync(p))
}

/** A hash of everything the build reads: a different hash means the build is stale. */
export function buildInputsHash() {
  const hash = createHash('sha256')
  for (const input of INPUTS) addTree(hash, path.join(root, input))
  return hash.digest('hex')
}

export function buildIsCurrent() {
  return existsSync(stampFile) && readFileSync(stampFile, 'utf8') === buildInputsHash()
}
