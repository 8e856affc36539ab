// Text the way people write it for the search index: many distinct words. A row of one repeated
// word costs the full-text index next to nothing, and a test or bench filled with it understates
// what writing real text costs (decision 072).
const SYLLABLES = ['lo', 'ris', 'ka', 'mu', 'te', 'van', 'sel', 'por', 'di', 'na', 'gre', 'bo', 'xu', 'fen']
let seed = 1

/** `n` made-up words of three syllables, a few thousand distinct ones overall, always the same. */
export function prose(n: number): string {
  const words: string[] = []
  for (let w = 0; w < n; w++) {
    let word = ''
    for (let k = 0; k < 3; k++) {
      seed = (seed * 48271) % 2147483647
      word += SYLLABLES[seed % SYLLABLES.length]
    }
    words.push(word)
  }
  return words.join(' ')
}
