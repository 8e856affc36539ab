import { z } from 'zod'
import { chatModelSchema } from './config.ts'
import { pageQuery, pageSchema } from './page.ts'
import { withoutNul } from './text.ts'
import { THREAD_TITLE_MAX } from './thread-titles.ts'

/** The thread every account is born with; it cannot be favorited, renamed or deleted (spec 5). */
export const DEFAULT_THREAD_TITLE = 'Default'

/** A thread as the API answers it; dates are ISO 8601 strings. */
export const threadSchema = z.object({
  id: z.string(),
  title: z.string(),
  isFavorite: z.boolean(),
  isDefault: z.boolean(),
  lastMessageAt: z.string(),
  chatModel: chatModelSchema,
  createdAt: z.string(),
  /** The project the thread belongs to (shown in its folder); null for none. */
  projectId: z.string().nullable().optional(),
})
export type Thread = z.infer<typeof threadSchema>

/** GET /api/threads: Default first, then most recent first (lastMessageAt, then id). */
export const threadListSchema = z.array(threadSchema)
/** GET /api/threads?limit=&cursor= → one page of that order. */
export const threadsQuery = pageQuery
export const threadPageSchema = pageSchema(threadSchema)
export type ThreadPage = z.infer<typeof threadPageSchema>
export { THREADS_PAGE_SIZE } from './page-sizes.ts'

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

export { markdownToPlain, threadTitleFrom } from './thread-titles.ts'
