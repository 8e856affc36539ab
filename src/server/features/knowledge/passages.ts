// A file's text as passages: whole paragraphs gathered up to PASSAGE_CHARS, a longer paragraph
// cut at sentence ends (or, failing those, at spaces). Small enough that the few retrieved are a
// small share of a large file; large enough to hold an answer with its context.

export const PASSAGE_CHARS = 1_000

function cutLong(paragraph: string, max: number): string[] {
  const out: string[] = []
  let rest = paragraph
  while (rest.length > max) {
    const window = rest.slice(0, max)
    const sentence = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! '))
    const space = window.lastIndexOf(' ')
    const at = sentence > max / 2 ? sentence + 1 : space > max / 2 ? space : max
    out.push(rest.slice(0, at).trim())
    rest = rest.slice(at).trim()
  }
  if (rest) out.push(rest)
  return out
}

export function splitPassages(text: string, max = PASSAGE_CHARS): string[] {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .flatMap((p) => (p.length > max ? cutLong(p, max) : [p]))
  const passages: string[] = []
  let current = ''
  for (const p of paragraphs) {
    if (current && current.length + 2 + p.length > max) {
      passages.push(current)
      current = p
    } else current = current ? `${current}\n\n${p}` : p
  }
  if (current) passages.push(current)
  return passages
}

// Words too common to say what a message is about (English and French, the app's audiences).
const COMMON = new Set(
  `the a an and or of to in on at for with by from is are was were be been it its this that these those what which who whom whose when where why how do does did can could would should will shall may might must i you he she we they me my your our their about into over than then there here as not no yes if so but le la les un une des du de et ou est sont dans sur pour par avec que qui quoi quand comment pourquoi ce cette ces il elle nous vous ils elles je tu mon ma mes ton ta tes son sa ses au aux en`.split(
    ' ',
  ),
)

/**
 * The words of a message as a PostgreSQL tsquery matching any of them (`simple` configuration, as
 * the passages are indexed); null when no word says anything. Only letters and digits reach it.
 */
export function anyWordQuery(message: string, maxWords = 32): string | null {
  const words = [
    ...new Set(
      (message.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && !COMMON.has(w)),
    ),
  ]
  if (!words.length) return null
  return words.slice(0, maxWords).join(' | ')
}
