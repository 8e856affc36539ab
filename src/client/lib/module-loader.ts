import { useEffect, useSyncExternalStore } from 'react'

/**
 * Code a screen needs only sometimes: imported on demand, once, and then at hand
 * synchronously, so a screen that waited for it (a route's prepare step) renders it at once,
 * with no Suspense fallback in between.
 */
export interface ModuleLoader<T> {
  /** Starts the import (once) and resolves with the module. */
  load(): Promise<T>
  /** The module, once it has arrived. */
  current(): T | null
  subscribe(listener: () => void): () => void
}

export function moduleLoader<T>(importer: () => Promise<T>): ModuleLoader<T> {
  let module: T | null = null
  let pending: Promise<T> | null = null
  const listeners = new Set<() => void>()
  return {
    load() {
      pending ??= importer().then(
        (m) => {
          module = m
          for (const l of listeners) l()
          return m
        },
        (error: unknown) => {
          pending = null // a failed download may be tried again
          throw error
        },
      )
      return pending
    },
    current: () => module,
    subscribe(l) {
      listeners.add(l)
      return () => {
        listeners.delete(l)
      }
    },
  }
}

/** The module once loaded (null until then); asks for it while `wanted`. */
export function useLoadedModule<T>(loader: ModuleLoader<T>, wanted: boolean): T | null {
  const module = useSyncExternalStore(loader.subscribe, loader.current)
  useEffect(() => {
    if (wanted && !module) loader.load().catch(() => undefined)
  }, [loader, wanted, module])
  return module
}
