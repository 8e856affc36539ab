// Decodes request bodies and queries the way Stripe's API reads them.

export type FormValue = string | FormValue[] | { [key: string]: FormValue }
export type FormObject = { [key: string]: FormValue }

// Keys that would reach Object.prototype if a client sent them as bracket segments.
const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Decodes Stripe's form encoding into nested objects: `metadata[userId]=u` → `{ metadata: { userId } }`,
 * `line_items[0][price]=p` → `{ line_items: [{ price }] }`, `expand[]=a&expand[]=b` → `{ expand: [a, b] }`
 * (the SDK itself sends arrays as `expand[0]=a`).
 * Values stay strings, as on Stripe's side, where each parameter's schema decides how to coerce them.
 */
export function parseStripeForm(body: string): FormObject {
  const root: FormObject = {}
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = splitKey(rawKey)
    if (path.some((segment) => forbiddenKeys.has(segment))) continue
    assign(root, path, value)
  }
  return arraysFromIndexes(root) as FormObject
}

function splitKey(key: string): string[] {
  const first = key.indexOf('[')
  if (first < 0) return [key]
  const rest = [...key.slice(first).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? '')
  return [key.slice(0, first), ...rest]
}

// Builds plain objects first; `[]` appends under a fresh numeric key so arrays come out in order.
function assign(target: FormObject, path: string[], value: string): void {
  let node = target
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] === '' ? String(Object.keys(node).length) : path[i]!
    if (i === path.length - 1) {
      node[segment] = value
      return
    }
    const next = node[segment]
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[segment] = {}
    node = node[segment] as FormObject
  }
}

function arraysFromIndexes(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value
  const keys = Object.keys(value)
  const converted: FormObject = {}
  for (const key of keys) converted[key] = arraysFromIndexes(value[key]!)
  const isArray = keys.length > 0 && keys.every((k) => /^\d+$/.test(k))
  if (!isArray) return converted
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => converted[k]!)
}
