// What shapes a person's assistant: their own instructions, projects (threads sharing
// instructions and files) and the passages of those files that retrieval searches (decision 068).
// A document attached to a message is kept the same way for its thread: later turns retrieve its
// passages instead of the whole text.
import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { threads, uploads } from './chat.ts'
import { users } from './users.ts'

/** PostgreSQL's tsvector, written by the database only (a generated column). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

/** Custom instructions: sent in every mode's system prompt while enabled. */
export const userInstructions = pgTable('user_instructions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  aboutMe: text('about_me').notNull().default(''),
  howToRespond: text('how_to_respond').notNull().default(''),
  enabled: boolean('enabled').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    instructions: text('instructions').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('projects_user_idx').on(t.userId, t.createdAt)],
)

/**
 * A file of a project, or a document attached to a message of a thread (then `threadId` and the
 * `uploadId` it came from): extracted once; its text lives on as passages.
 */
export const projectFiles = pgTable(
  'project_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id').references((): AnyPgColumn => threads.id, { onDelete: 'cascade' }),
    uploadId: uuid('upload_id').references((): AnyPgColumn => uploads.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    /** Characters of extracted text (what sending the whole file would have cost). */
    chars: integer('chars').notNull(),
    passages: integer('passages').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('project_files_project_idx').on(t.projectId, t.createdAt),
    uniqueIndex('project_files_thread_upload_idx')
      .on(t.threadId, t.uploadId)
      .where(sql`${t.threadId} is not null`),
    check('project_files_one_owner', sql`(${t.projectId} is null) <> (${t.threadId} is null)`),
  ],
)

/** A few hundred words of a file, ranked against a message by full text (and vectors, db/vectors.ts). */
export const passages = pgTable(
  'passages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => projectFiles.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id').references((): AnyPgColumn => threads.id, { onDelete: 'cascade' }),
    ordinal: integer('ordinal').notNull(),
    text: text('text').notNull(),
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('simple', "text")`),
  },
  (t) => [
    index('passages_project_idx').on(t.projectId, t.fileId, t.ordinal),
    index('passages_thread_idx').on(t.threadId, t.fileId, t.ordinal).where(sql`${t.threadId} is not null`),
    index('passages_search_idx').using('gin', t.searchVector),
  ],
)
