// The chat's first load in a few files rather than thirty (docs/decisions/044). Left to itself
// the bundler gives every set of lazy pages that share modules its own chunk: /chat's first load
// was 33 files (each Radix primitive, zod, React Query, small helpers), which a phone on slow 4G
// fetches over HTTP/1.1's six connections in six or seven round trips before it paints. Here the
// modules a listed group of sources needs at once (statically, less what the entry and the landing
// page hold) go into that group's one chunk. Lazy imports keep their own chunks.
import type { Plugin } from 'vite'

export interface ChunkGroup {
  /** The chunk's name. */
  name: string
  /** Sources (relative to the client root) whose static imports, followed, make the chunk. */
  sources: string[]
  /**
   * The chunk for the group's modules that other lazily loaded pages import too (account, how it
   * works...), so those pages do not load what only this group needs.
   */
  shared?: string
}

export interface RouteChunksOptions {
  /** Sources whose static imports stay in the bundler's own chunks (the landing page's, small). */
  leftAlone: string[]
  /** Taken in order: a module goes to the first group that needs it. */
  groups: ChunkGroup[]
}

export function routeChunks({ leftAlone, groups }: RouteChunksOptions): Plugin {
  const chunkOf = new Map<string, string>()
  const names = [
    ...new Set(groups.flatMap((group) => (group.shared ? [group.name, group.shared] : [group.name]))),
  ]
  return {
    name: 'loris-route-chunks',
    apply: 'build',
    buildEnd(error) {
      if (error) return
      const ids = [...this.getModuleIds()]
      const staticClosure = (roots: Iterable<string>) => {
        const seen = new Set<string>()
        const visit = (id: string) => {
          if (seen.has(id)) return
          seen.add(id)
          for (const imported of this.getModuleInfo(id)?.importedIds ?? []) visit(imported)
        }
        for (const id of roots) visit(id)
        return seen
      }
      const moduleOf = (source: string) => {
        const id = ids.find((candidate) => candidate.endsWith(`/src/client/${source}`))
        if (!id) throw new Error(`routeChunks: the build has no module src/client/${source}`)
        return id
      }
      const inEntry = staticClosure(ids.filter((id) => this.getModuleInfo(id)?.isEntry))
      const taken = new Set([...inEntry, ...staticClosure(leftAlone.map(moduleOf))])
      // What the entry loads lazily: the pages, and parts such as the toaster.
      const lazyRoots = new Set<string>()
      for (const id of inEntry)
        for (const lazy of this.getModuleInfo(id)?.dynamicallyImportedIds ?? []) lazyRoots.add(lazy)
      for (const group of groups) {
        const roots = group.sources.map(moduleOf)
        // What the other lazily loaded parts need, for a group that shares with them.
        const elsewhere = group.shared
          ? staticClosure([...lazyRoots].filter((id) => !roots.includes(id)))
          : new Set<string>()
        for (const id of staticClosure(roots)) {
          // What is imported lazily keeps its own chunk, which imports the groups' chunks.
          if (taken.has(id) || lazyRoots.has(id)) continue
          taken.add(id)
          chunkOf.set(id, group.shared && elsewhere.has(id) ? group.shared : group.name)
        }
      }
    },
    outputOptions(options) {
      return {
        ...options,
        codeSplitting: {
          // The default would also pull in what a captured module imports, the entry's and the
          // landing page's modules included, and the landing page would load the group's chunk.
          includeDependenciesRecursively: false,
          groups: names.map((name) => ({ name, test: (id: string) => chunkOf.get(id) === name })),
        },
      }
    },
  }
}
