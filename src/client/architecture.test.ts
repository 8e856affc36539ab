// The client's layout rule (docs/architecture.md): a feature under features/<f> never imports a
// sibling feature. What several features need lives in app/, lib/, components/ or hooks/, and a
// screen that composes features is assembled in app/routes/.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const CLIENT = import.meta.dirname
const FEATURES = path.join(CLIENT, 'features')

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

/** Each import in a feature's source that reaches into another feature, as `file:line -> specifier`. */
function siblingImports(files: string[], read = (file: string) => readFileSync(file, 'utf8')) {
  const offences: string[] = []
  for (const file of files) {
    const own = featureOf(file)
    if (!own) continue
    const text = read(file)
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[2]
      const target = specifier && targetOf(file, specifier)
      const other = target && featureOf(target)
      if (!other || other === own) continue
      const line = text.slice(0, match.index).split('\n').length
      offences.push(`${path.relative(CLIENT, file)}:${line} imports ${specifier}`)
    }
  }
  return offences
}

describe('the client layout', () => {
  it('has no feature that imports a sibling feature', () => {
    const files = sourcesBelow(FEATURES)
    expect(files.length).toBeGreaterThan(100)
    expect(siblingImports(files)).toEqual([])
  })

  it('names an alias, a relative path and a lazy import into a sibling', () => {
    const file = path.join(FEATURES, 'chat', 'components', 'header.tsx')
    const source = [
      "import { useUser } from '#client/features/auth/api/get-user.ts'",
      "import { Badge } from '../../impact/components/badge.tsx'",
      "const Panel = lazy(() => import('#client/features/threads/panel.tsx'))",
      "import { Own } from '../hooks/use-own.ts'",
      "import { cn } from '#client/lib/cn.ts'",
    ].join('\n')
    expect(siblingImports([file], () => source)).toEqual([
      'features/chat/components/header.tsx:1 imports #client/features/auth/api/get-user.ts',
      'features/chat/components/header.tsx:2 imports ../../impact/components/badge.tsx',
      'features/chat/components/header.tsx:3 imports #client/features/threads/panel.tsx',
    ])
  })
})
