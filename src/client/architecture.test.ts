// The client's layout rule (docs/architecture.md): a feature under features/<f> never imports a
// sibling feature. What several features need lives in app/api, app/hooks, lib/, components/ or
// hooks/; a screen that composes features is assembled in app/routes/, which no feature imports.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const CLIENT = import.meta.dirname
const FEATURES = path.join(CLIENT, 'features')
/** What of app/ a feature may read: the shared queries and state, not the router or the screens. */
const APP_SHARED = [path.join(CLIENT, 'app', 'api'), path.join(CLIENT, 'app', 'hooks')]

/** Every module specifier in a source: static imports and exports, `import()`, side-effect imports. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\1/g

function sourcesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .filter((entry) => !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
}

/** The feature a path under src/client lies in, or undefined outside features/. */
function featureOf(file: string): string | undefined {
  const relative = path.relative(FEATURES, file)
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined
  return relative.split(path.sep)[0]
}

/** Where a specifier written in `file` points, for our own modules (an alias or a relative path). */
function targetOf(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('#client/')) return path.join(CLIENT, specifier.slice('#client/'.length))
  if (specifier.startsWith('.')) return path.resolve(path.dirname(file), specifier)
  return undefined
}

const inside = (dir: string, file: string) => {
  const relative = path.relative(dir, file)
  return !relative.startsWith('..') && !path.isAbsolute(relative)
}

/** Whether a feature may not import `target`: another feature, or app/ beyond its shared parts. */
function outOfBounds(own: string, target: string) {
  const other = featureOf(target)
  if (other) return other !== own
  return inside(path.join(CLIENT, 'app'), target) && !APP_SHARED.some((dir) => inside(dir, target))
}

/** Each import in a feature's source that reaches into another feature or a screen of app/. */
function importsOutOfBounds(files: string[], read = (file: string) => readFileSync(file, 'utf8')) {
  const offences: string[] = []
  for (const file of files) {
    const own = featureOf(file)
    if (!own) continue
    const text = read(file)
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[2]
      const target = specifier && targetOf(file, specifier)
      if (!target || !outOfBounds(own, target)) continue
      const line = text.slice(0, match.index).split('\n').length
      offences.push(`${path.relative(CLIENT, file)}:${line} imports ${specifier}`)
    }
  }
  return offences
}

describe('the client layout', () => {
  it('has no feature that imports a sibling feature or a screen of app/', () => {
    const files = sourcesBelow(FEATURES)
    expect(files.length).toBeGreaterThan(100)
    expect(importsOutOfBounds(files)).toEqual([])
  })

  it('names an alias, a relative path and a lazy import into a sibling, and an import of a screen', () => {
    const file = path.join(FEATURES, 'chat', 'components', 'header.tsx')
    const source = [
      "import { useUser } from '#client/features/auth/api/get-user.ts'",
      "import { Badge } from '../../impact/components/badge.tsx'",
      "const Panel = lazy(() => import('#client/features/threads/panel.tsx'))",
      "import { Own } from '../hooks/use-own.ts'",
      "import { cn } from '#client/lib/cn.ts'",
      "import { useUser } from '#client/app/api/get-user.ts'",
      "import { ChatView } from '#client/app/routes/chat/chat-view.tsx'",
    ].join('\n')
    expect(importsOutOfBounds([file], () => source)).toEqual([
      'features/chat/components/header.tsx:1 imports #client/features/auth/api/get-user.ts',
      'features/chat/components/header.tsx:2 imports ../../impact/components/badge.tsx',
      'features/chat/components/header.tsx:3 imports #client/features/threads/panel.tsx',
      'features/chat/components/header.tsx:7 imports #client/app/routes/chat/chat-view.tsx',
    ])
  })
})
