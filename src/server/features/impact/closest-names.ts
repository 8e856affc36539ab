// "Did you mean" for model names. Edit distance is quadratic in the two lengths, so the caller
// caps the wanted name (the estimate query allows 120 characters; catalogue names are at most 54):
// 370 names x 120 x 54 cells is a few million steps, a few milliseconds, per bad request.

/**
 * The fewest edits turning `a` into `b` (Levenshtein), or with `infix` into some part of `b`
 * (Sellers: the match may start and end anywhere in b). One row of memory.
 */
function distance(a: string, b: string, infix: boolean): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => (infix ? 0 : j))
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution)
    }
    previous = current
  }
  return infix ? Math.min(...previous) : (previous[b.length] ?? 0)
}

export const editDistance = (a: string, b: string) => distance(a, b, false)
export const infixDistance = (a: string, b: string) => distance(a, b, true)

// A family name ("llama", "claude sonnet") should find the models that contain it, which the
// plain distance ranks behind short unrelated names: a match inside the name costs its edits
// plus one, so a name typed in full still ranks first.
function score(wanted: string, name: string): number {
  const whole = editDistance(wanted, name)
  if (wanted.length >= name.length) return whole
  return Math.min(whole, infixDistance(wanted, name) + 1)
}

/** The `count` names closest to `wanted` (lower-cased), nearest first, ties by name. */
export function closestNames(wanted: string, names: readonly string[], count: number): string[] {
  const w = wanted.toLowerCase().replace(/\s+/g, '-')
  return names
    .map((name) => ({ name, d: score(w, name.toLowerCase()) }))
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name))
    .slice(0, count)
    .map((s) => s.name)
}
