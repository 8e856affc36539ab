import { MATCH_END, MATCH_START, type SnippetPart } from '#contract/search.ts'

/** Splits a ts_headline result (matches between MATCH_START and MATCH_END) into parts. */
export function snippetParts(headline: string): SnippetPart[] {
  const parts: SnippetPart[] = []
  const push = (text: string, match: boolean) => {
    if (!text) return
    const prev = parts.at(-1)
    if (prev && prev.match === match) prev.text += text
    else parts.push({ text, match })
  }
  let rest = headline
  while (rest) {
    const start = rest.indexOf(MATCH_START)
    if (start < 0) {
      push(rest, false)
      break
    }
    push(rest.slice(0, start), false)
    const end = rest.indexOf(MATCH_END, start + 1)
    const stop = end < 0 ? rest.length : end
    push(rest.slice(start + 1, stop), true)
    rest = rest.slice(stop + 1)
  }
  // Whitespace and line breaks collapse: a snippet is one line.
  return parts.map((p) => ({ ...p, text: p.text.replace(/\s+/g, ' ') }))
}
