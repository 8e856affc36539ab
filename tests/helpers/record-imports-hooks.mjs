// Module resolution hook for record-imports.mjs: runs on the loader's thread, writes each URL.
import { appendFileSync } from 'node:fs'

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context)
  if (process.env.RECORD_IMPORTS) appendFileSync(process.env.RECORD_IMPORTS, `${result.url}\n`)
  return result
}
