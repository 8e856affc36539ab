import { z } from 'zod'

// Cursor pagination for the long lists: `limit` asks for one page, `cursor` (the
// `nextCursor` of the page before) for the one after it. Without either, the endpoints answer
// the whole list as a bare array, for clients that read whole lists.

export const PAGE_LIMIT_MAX = 100

export const pageQuery = z.object({
  cursor: z.string().max(300, 'This page link is not valid').optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit is at least 1')
    .max(PAGE_LIMIT_MAX, `limit is at most ${PAGE_LIMIT_MAX}`)
    .optional(),
})

/** One page: `nextCursor` is null on the last one. */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() })
