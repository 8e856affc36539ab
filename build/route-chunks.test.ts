import { describe, expect, it } from 'vitest'
import { routeChunks } from './route-chunks.ts'

// A module graph as the bundler reports it at buildEnd: static and lazy imports by id.
type Graph = Record<string, { imports?: string[]; lazy?: string[]; entry?: boolean }>
const src = (p: string) => `/app/src/client/${p}`
const graph: Graph = {
  [src('main.tsx')]: { entry: true, imports: [src('router.tsx')] },
  [src('router.tsx')]: {
    imports: ['react'],
    lazy: [
      src('landing.tsx'),
      src('chat-page.tsx'),
      src('page-shell.tsx'),
      src('account.tsx'),
      src('toaster.tsx'),
    ],
  },
  react: {},
  [src('landing.tsx')]: { imports: [src('api.ts'), 'icon-leaf'] },
  [src('api.ts')]: {},
  'icon-leaf': {},
  [src('toaster.tsx')]: { imports: ['radix-toast', 'react'] },
  'radix-toast': { imports: ['radix-primitive'] },
  'radix-primitive': {},
  [src('page-shell.tsx')]: { imports: ['react-query'] },
  'react-query': {},
  [src('chat-page.tsx')]: {
    imports: [src('api.ts'), 'icon-leaf', 'radix-primitive', 'react-query', 'zod', src('composer.tsx')],
    lazy: [src('conversation.tsx')],
  },
  zod: {},
  [src('composer.tsx')]: { imports: ['icon-send'] },
  'icon-send': {},
  [src('conversation.tsx')]: { imports: ['markdown'] },
  markdown: {},
  [src('account.tsx')]: { imports: ['zod', 'react-query'] },
}

/** What the plugin assigns each module to, through the hooks the bundler calls. */
function chunksFor(g: Graph) {
  const plugin = routeChunks({
    leftAlone: ['landing.tsx'],
    groups: [
      { name: 'toasts', sources: ['toaster.tsx'] },
      { name: 'app', sources: ['page-shell.tsx'] },
      { name: 'chat', sources: ['chat-page.tsx'], shared: 'app' },
    ],
  })
  const context = {
    getModuleIds: () => Object.keys(g)[Symbol.iterator](),
    getModuleInfo: (id: string) => {
      const m = g[id]
      return m
        ? {
            id,
            isEntry: Boolean(m.entry),
            importedIds: m.imports ?? [],
            dynamicallyImportedIds: m.lazy ?? [],
          }
        : null
    },
  }
  type Hook = (this: typeof context, ...args: unknown[]) => unknown
  const hook = (h: unknown) => (typeof h === 'function' ? h : (h as { handler: unknown }).handler) as Hook
  hook(plugin.buildEnd).call(context)
  const output = hook(plugin.outputOptions).call(context, {}) as {
    codeSplitting: {
      includeDependenciesRecursively: boolean
      groups: { name: string; test: (id: string) => boolean }[]
    }
  }
  const chunkOf = (id: string) => output.codeSplitting.groups.filter((g) => g.test(id)).map((g) => g.name)
  return { chunkOf, output }
}

describe('routeChunks', () => {
  const { chunkOf, output } = chunksFor(graph)

  it("puts the chat's first load in its chunk, and what other pages also need in the shared one", () => {
    expect(chunkOf(src('composer.tsx'))).toEqual(['chat'])
    expect(chunkOf('icon-send')).toEqual(['chat'])
    expect(chunkOf('zod')).toEqual(['app']) // the account page needs it too
    expect(chunkOf('react-query')).toEqual(['app']) // the page shell's
    expect(chunkOf('radix-primitive')).toEqual(['toasts']) // the first group that needs it
    expect(chunkOf('radix-toast')).toEqual(['toasts'])
  })

  it("leaves the entry's, the landing page's and lazily imported modules to the bundler", () => {
    for (const id of ['react', src('router.tsx'), src('api.ts'), 'icon-leaf', src('chat-page.tsx')])
      expect(chunkOf(id)).toEqual([])
    // A lazy part of the chat, and what only it imports, load when needed.
    expect(chunkOf(src('conversation.tsx'))).toEqual([])
    expect(chunkOf('markdown')).toEqual([])
    // Each module in one chunk at most, and no group pulls in what its modules import.
    expect(output.codeSplitting.groups.map((g) => g.name)).toEqual(['toasts', 'app', 'chat'])
    expect(output.codeSplitting.includeDependenciesRecursively).toBe(false)
  })

  it('names a source the build does not have', () => {
    const g = { ...graph }
    delete g[src('landing.tsx')]
    expect(() => chunksFor(g)).toThrow(/src\/client\/landing\.tsx/)
  })
})
