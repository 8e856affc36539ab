// Turns what a person types into the pieces of a tsquery, without ever putting their text into
// SQL: the caller passes these strings as parameters.

/** A word as the 'simple' text search parser keeps it: letters, digits and underscores. */
const WORD = /^[\p{L}\p{N}_]+$/u

export interface SearchTerms {
  /** For websearch_to_tsquery (quotes, OR, -word); may be empty. */
  web: string
  /** The last word while it is being typed, matched as a prefix (`word:*`); null when none. */
  prefix: string | null
}

/**
 * "slow lor" searches for `slow` and any word starting with `lor`. The last word is a prefix
 * only when it is a plain word outside quotes and not negated; anything else goes to
 * websearch_to_tsquery as typed.
 */
export function searchTerms(input: string): SearchTerms {
  const text = input.trim()
  const quotes = (text.match(/"/g) ?? []).length
  const lastSpace = Math.max(text.lastIndexOf(' '), text.lastIndexOf('\t'), text.lastIndexOf('\n'))
  const last = text.slice(lastSpace + 1)
  const web = text.slice(0, lastSpace + 1).trim()
  // After `OR` the last word is an alternative, which a prefix AND-ed on would turn around.
  if (quotes % 2 === 0 && WORD.test(last) && last !== 'OR' && !/(^|\s)OR$/.test(web)) {
    return { web, prefix: last.toLowerCase() }
  }
  return { web: text, prefix: null }
}
