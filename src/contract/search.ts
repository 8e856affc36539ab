import { z } from 'zod'
import { withoutNul } from './text.ts'

/** GET /api/search?q=&cursor= : the signed-in user's messages matching `q`, best first. */
export const searchQuery = z.object({
  q: withoutNul(
    z
      .string({ error: 'Please enter something to search for' })
      .trim()
      .min(1, 'Please enter something to search for')
      .max(200, 'A search is at most 200 characters'),
    'search',
  ),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).optional().default(20),
})
export type SearchQuery = z.input<typeof searchQuery>

/** A piece of a snippet; `match` pieces are the words that matched (shown highlighted). */
export const snippetPartSchema = z.object({ text: z.string(), match: z.boolean() })
export type SnippetPart = z.infer<typeof snippetPartSchema>

export const searchResultSchema = z.object({
  threadId: z.string(),
  messageId: z.string(),
  threadTitle: z.string(),
  /** The exchange's date (ISO 8601). */
  createdAt: z.string(),
  /** Where the words matched: the exchange's text or the file sent with it. */
  source: z.enum(['message', 'attachment']),
  snippet: z.array(snippetPartSchema),
})
export type SearchResult = z.infer<typeof searchResultSchema>

export const searchResponseSchema = z.object({
  results: z.array(searchResultSchema),
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
})
export type SearchResponse = z.infer<typeof searchResponseSchema>

/**
 * ts_headline marks matches with these private-use characters (stripped from the text first, so
 * user text can never forge one); the server turns them into SnippetPart pieces.
 */
export const MATCH_START = '\uE000'
export const MATCH_END = '\uE001'
