// Thread titles, without zod: the chat's first load makes a new thread's title from its first
// message (decision 044; threads.ts re-exports the titles the server makes).

export const THREAD_TITLE_MAX = 120

const TITLE_FROM_MESSAGE_CHARS = 60
/**
 * What of a message its title is read from. Several rules below look ahead from every `*`, `_`
 * or `[` for the mark that closes it, so text full of marks that never close costs the square of
 * its length: a 100,000-character message of ` **a` held the server for seconds. A title needs
 * the message's first words only.
 */
const TITLE_SOURCE_CHARS = 1_000

/**
 * Markdown read as plain text, for titles: emphasis, code ticks, headings, quotes, list bullets,
 * links and images keep only their words (a title is shown as plain text, never rendered).
 * Quadratic in the worst case (above): give it a title's source, not a whole message.
 */
export function markdownToPlain(text: string): string {
  return text
    .replace(/```[^\n]*\n?/g, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
    .replace(/(^|[^\w\\])(\*\*|__)(\S(?:.*?\S)?)\2(?!\w)/g, '$1$3')
    .replace(/(^|[^\w\\*])(\*|_)(\S(?:.*?[^\s\\])?)\2(?![\w*])/g, '$1$3')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!~>])/g, '$1')
}

/**
 * The title of a thread created by a send (or from a message): its first message on one line,
 * cut at a word near 60 characters. The client may use it for an optimistic title.
 */
export function threadTitleFrom(content: string): string {
  const line = markdownToPlain(content.slice(0, TITLE_SOURCE_CHARS)).replace(/\s+/g, ' ').trim()
  if (!line) return 'New conversation'
  if (line.length <= TITLE_FROM_MESSAGE_CHARS) return line
  const cut = line.slice(0, TITLE_FROM_MESSAGE_CHARS)
  const space = cut.lastIndexOf(' ')
  return `${(space > TITLE_FROM_MESSAGE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}
