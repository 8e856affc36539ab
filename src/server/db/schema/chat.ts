import { type SQL, sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { REPLY_FAMILIES } from '#contract/models.ts'
import { projects } from './assistant.ts'
import { users } from './users.ts'

/** The origins of messages the person wrote: trees and the sent count follow these only. */
export const PERSON_SENT_ORIGINS = ['sent', 'edit'] as const

/** PostgreSQL's tsvector: only ever written by the database (generated columns). */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

// 'simple' is language-neutral (no stemming, no stop words), so text in any language matches
// its own words; decision 013.
const SEARCH_CONFIG = sql.raw(`'simple'::regconfig`)

export const threads = pgTable(
  'threads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    isFavorite: boolean('is_favorite').notNull().default(false),
    // The 'Default' thread every account has; it cannot be renamed, favorited or deleted.
    isDefault: boolean('is_default').notNull().default(false),
    chatModel: text('chat_model', { enum: ['gemini', 'loris', 'chatgpt'] })
      .notNull()
      .default('gemini'),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // Where an imported thread came from (e.g. `chatgpt:<conversation id>`): importing the same
    // file twice finds it and creates nothing new. Null for threads made here.
    importSource: text('import_source'),
    // The project the thread belongs to (its instructions and files reach the model); null for none.
    // Deleting a project moves its threads out or deletes them first (projects/queries.ts).
    projectId: uuid('project_id').references((): AnyPgColumn => projects.id, { onDelete: 'set null' }),
  },
  (t) => [
    // The thread list's order (Default, favourites, then lastMessageAt, then id): a page is one
    // walk of it from the cursor (decision 014).
    index('threads_user_page_idx').on(t.userId, t.isDefault, t.isFavorite, t.lastMessageAt, t.id),
    uniqueIndex('threads_one_default_idx').on(t.userId).where(sql`${t.isDefault}`),
    uniqueIndex('threads_import_source_idx')
      .on(t.userId, t.importSource)
      .where(sql`${t.importSource} is not null`),
  ],
)

export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Content address (sha256) in the object store; several uploads may share one object.
    storageKey: text('storage_key').notNull(),
    mimeType: text('mime_type').notNull(),
    kind: text('kind', { enum: ['image', 'document', 'audio'] }).notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // The text read from a document (what the model was sent), kept so search finds it.
    extractedText: text('extracted_text'),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      (): SQL => sql`to_tsvector(${SEARCH_CONFIG}, coalesce(${uploads.extractedText}, ''))`,
    ),
  },
  (t) => [
    index('uploads_user_idx').on(t.userId),
    index('uploads_key_idx').on(t.storageKey),
    index('uploads_search_idx').using('gin', t.searchVector),
  ],
)

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id').references(() => threads.id, { onDelete: 'cascade' }),
    // Idempotency key from the client: a retried send never stores a second message.
    clientMessageId: text('client_message_id'),
    // The exchange this one follows on its branch (null: the first of the thread). Siblings, the
    // exchanges sharing a parent, are versions of one turn (docs/decisions/012-message-versions.md).
    parentId: uuid('parent_id'),
    // How the exchange came to be (messageOriginSchema): only 'sent' and 'edit' are messages the
    // person wrote here (trees).
    origin: text('origin', { enum: ['sent', 'edit', 'regenerate', 'copy', 'import'] })
      .notNull()
      .default('sent'),
    // Among siblings, the one selected most recently is on the shown branch.
    selectedAt: timestamp('selected_at', { withTimezone: true }).notNull().defaultNow(),
    // The turn's place on its branch (0 for the first turn): the parent's depth plus one.
    depth: integer('depth').notNull().default(0),
    content: text('content').notNull(),
    response: text('response').notNull().default(''),
    status: text('status', { enum: ['streaming', 'complete', 'interrupted', 'failed'] })
      .notNull()
      .default('streaming'),
    errorMessage: text('error_message'),
    // The mode that answered, or a catalogue model's family (contract/models.ts REPLY_FAMILIES).
    chatModel: text('chat_model', { enum: REPLY_FAMILIES }).notNull(),
    provider: text('provider'),
    modelId: text('model_id'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    latencyMs: integer('latency_ms'),
    co2Impact: jsonb('co2_impact'),
    // What the reply drew on and the tools it called (contract/tools.ts: sources numbered from 1
    // as the reply cites them, tool steps in order); null when it looked nothing up. Decision 065.
    sources: jsonb('sources').$type<{ url: string; title: string; snippet?: string }[]>(),
    toolSteps:
      jsonb('tool_steps').$type<
        { id: string; name: string; args: unknown; result?: string; status: string }[]
      >(),
    // A reply that ended asking the person to approve a tool call: what it needs to go on once
    // they answer (models/approval.ts PendingApproval); null otherwise. Decision 070.
    pendingApproval: jsonb('pending_approval'),
    uploadId: uuid('upload_id').references(() => uploads.id, { onDelete: 'set null' }),
    mediaUrl: text('media_url'),
    mediaType: text('media_type', { enum: ['image', 'document'] }),
    // The sent file's name and type as the exchange shows them ("report.pdf", PDF); kept on the
    // message because they never change and the lists then need no join.
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    // What this send reserved on users.ai_reserved_chars; zeroed when the reply is settled.
    reservedChars: integer('reserved_chars').notNull().default(0),
    // The lease of the node generating a streaming reply: renewed at each progress save. A reply
    // whose heartbeat is older than the lease lost its node and is finished by the sweep
    // (docs/decisions/009-limits-and-leases.md).
    nodeId: text('node_id'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    // Which attempt at the reply is the row's: set by the send and by each retry that restarts the
    // row, and carried by its generation. A save or an end from a replaced attempt (a node stalled
    // past its lease while a retry restarted the row) is refused (decision 009). Null on rows from
    // before it, which no generation here carries: nothing but the sweep or a restart ends those.
    attemptId: uuid('attempt_id'),
    // The project passages the send retrieved and the size of their files (contract: knowledge).
    knowledge: jsonb('knowledge'),
    // The person's text, the reply and the titles of its sources, for full-text search (decision
    // 013). Only once the reply is settled: a progress save (decision 019) would otherwise index
    // the whole text again. The titles are the string values of a path over the sources (a
    // reply's few; an import's at most IMPORT_LIMITS.maxSourcesPerMessage).
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      (): SQL =>
        sql`case when ${messages.status} = 'streaming' then null else to_tsvector(${SEARCH_CONFIG}, ${messages.content} || ' ' || ${messages.response}) || to_tsvector(${SEARCH_CONFIG}, jsonb_path_query_array(coalesce(${messages.sources}, '[]'::jsonb), '$[*].title')) end`,
    ),
  },
  (t) => [
    // A thread's messages in page order (createdAt, then id); the Default thread also shows the
    // thread-less ones, which have their own.
    index('messages_thread_page_idx').on(t.threadId, t.createdAt, t.id),
    index('messages_threadless_page_idx').on(t.userId, t.createdAt, t.id).where(sql`${t.threadId} is null`),
    // Replies not yet settled, found per user by the lease check a list makes and by the sweep
    // (lease.ts finishLapsed; the same condition, so the planner uses it however long the
    // history). No index names heartbeat_at or response: a progress save changes only those, so
    // it is a HOT update (no index entries), in the room the table's fillfactor keeps on each page
    // (migration 0014).
    index('messages_unsettled_idx')
      .on(t.userId)
      .where(sql`${t.completedAt} is null and (${t.status} = 'streaming' or ${t.reservedChars} > 0)`),
    index('messages_search_idx').using('gin', t.searchVector),
    // Replies waiting for an approval, few at any time: the hourly expiry reads only these.
    index('messages_pending_approval_idx').on(t.id).where(sql`${t.pendingApproval} is not null`),
    index('messages_user_created_idx').on(t.userId, t.createdAt),
    // Whether a thread has documents attached (a send's setup, decision 068), without a walk of it.
    index('messages_thread_documents_idx')
      .on(t.threadId, t.uploadId)
      .where(sql`${t.mediaType} = 'document' and ${t.uploadId} is not null`),
    // A turn's versions in page order (created_at, id) by one walk: with only (thread_id,
    // parent_id), statistics that see many short threads make the planner read the whole thread
    // through messages_thread_page_idx for its order instead (999 rows per row; decision 030).
    index('messages_thread_parent_idx').on(t.threadId, t.parentId, t.createdAt, t.id),
    uniqueIndex('messages_client_id_idx').on(t.userId, t.clientMessageId),
  ],
)

/**
 * The branch each thread shows (decisions 021 and 048), one row per turn: kept by every write
 * that changes that branch, so a page of it, the leaf a send follows and its history are read by
 * index. Apart from the messages so that moving the branch writes these narrow rows only, never a
 * message row (which would enter each of its words in the search index again).
 */
export const shownTurns = pgTable(
  'shown_turns',
  {
    threadId: uuid('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    // The turn (messages.depth of the exchange shown there).
    depth: integer('depth').notNull(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
  },
  (t) => [
    // One exchange per turn: two sends racing to follow the same leaf cannot both be shown (the
    // loser retries); a page is a walk of it from the cursor.
    primaryKey({ name: 'shown_turns_pkey', columns: [t.threadId, t.depth] }),
    // Whether an exchange is shown, and at which turn.
    uniqueIndex('shown_turns_message_idx').on(t.messageId),
  ],
)
