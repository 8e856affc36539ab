import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { threads } from './chat.ts'
import { users } from './users.ts'

/**
 * A read-only link to a thread as it stood when it was shared: the exchanges are copied into
 * `snapshot`, so later messages never show. Deleting the thread or the account deletes the link.
 */
export const shares = pgTable(
  'shares',
  {
    // 32 random bytes, base64url: unguessable, and the only thing a visitor needs.
    token: text('token').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** SharedExchange[] (src/contract/sharing.ts). */
    snapshot: jsonb('snapshot').notNull(),
    allowIndexing: boolean('allow_indexing').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('shares_user_idx').on(t.userId, t.createdAt)],
)
