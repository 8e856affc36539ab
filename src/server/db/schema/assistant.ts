// What shapes a person's assistant: their own instructions, projects (threads sharing
// instructions and files) and the passages of those files that retrieval searches (decision 068).
import { sql } from 'drizzle-orm'
import { boolean, customType, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
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

/** A file of a project: extracted once when added; its text lives on as passages. */
export const projectFiles = pgTable(
  'project_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
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
  (t) => [index('project_files_project_idx').on(t.projectId, t.createdAt)],
)

/** A few hundred words of a project file, ranked by full-text search against a message. */
export const passages = pgTable(
  'passages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => projectFiles.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    ordinal: integer('ordinal').notNull(),
    text: text('text').notNull(),
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('simple', "text")`),
  },
  (t) => [
    index('passages_project_idx').on(t.projectId, t.fileId, t.ordinal),
    index('passages_search_idx').using('gin', t.searchVector),
  ],
)
