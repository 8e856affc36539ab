// Worker threads run from their TypeScript source under tsx or vitest, and from the file bundled
// beside main.js in the built server (scripts/build.mjs bundles each worker there).
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { type ResourceLimits, Worker } from 'node:worker_threads'

/**
 * Starts the worker `name` beside the module `from` (its import.meta.url): `name.ts` through tsx's
 * loader when that module runs from source, else `name.js`.
 */
export function startWorkerBeside(from: string, name: string, resourceLimits: ResourceLimits): Worker {
  const fromSource = from.endsWith('.ts')
  const url = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, from)
  if (!fromSource) return new Worker(url, { resourceLimits })
  // tsx's ESM entry (its CommonJS one cannot find its own files from an eval'd worker).
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  )
  const boot = `import(${JSON.stringify(tsx.href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(boot, { eval: true, resourceLimits })
}
