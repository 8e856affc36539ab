import { z } from 'zod'
import { chatModelSchema } from './config.ts'
import { pageQuery, pageSchema } from './page.ts'
import { withoutNul } from './text.ts'

/** The thread every account is born with; it cannot be favorited, renamed or deleted (spec 5). */
export const DEFAULT_THREAD_TITLE = 'Default'
export const THREAD_TITLE_MAX = 120

/** A thread as the API answers it; dates are ISO 8601 strings. */
export const threadSchema = z.object({
  id: z.string(),
  title: z.string(),
  isFavorite: z.boolean(),
  isDefault: z.boolean(),
  lastMessageAt: z.string(),
  chatModel: chatModelSchema,
  createdAt: z.string(),
})
export type Thread = z.infer<typeof threadSchema>

/** GET /api/threads: Default first, then most recent first (lastMessageAt, then id). */
export const threadListSchema = z.array(threadSchema)
/** GET /api/threads?limit=&cursor= → one page of that order. */
export const threadsQuery = pageQuery
export const threadPageSchema = pageSchema(threadSchema)
export type ThreadPage = z.infer<typeof threadPageSchema>
export const THREADS_PAGE_SIZE = 50

export const threadIdParam = z.object({ id: z.uuid({ error: 'Unknown thread' }) })

/** PUT /api/threads/:id/favorite → Thread */
export const favoriteThreadBody = z.object({
  isFavorite: z.boolean({ error: 'isFavorite must be true or false' }),
})
export type FavoriteThreadBody = z.infer<typeof favoriteThreadBody>

/** PUT /api/threads/:id/rename → Thread. The title is trimmed before it is checked. */
export const renameThreadBody = z.object({
  title: withoutNul(
    z
      .string({ error: 'Please enter a title' })
      .trim()
      .min(1, 'Please enter a title')
      .max(THREAD_TITLE_MAX, `A title is at most ${THREAD_TITLE_MAX} characters`),
    'title',
  ),
})
export type RenameThreadBody = z.infer<typeof renameThreadBody>

/** DELETE /api/threads/:id → the deleted id (its messages go with it). */
export const deleteThreadResponse = z.object({ ok: z.literal(true), id: z.string() })
export type DeleteThreadResponse = z.infer<typeof deleteThreadResponse>

/** POST /api/threads/create-from-message → 201 Thread, seeded with a copy of that exchange. */
export const createFromMessageBody = z.object({
  messageId: z.uuid({ error: 'Unknown message' }),
})
export type CreateFromMessageBody = z.infer<typeof createFromMessageBody>
export const createFromMessageResponse = threadSchema

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
