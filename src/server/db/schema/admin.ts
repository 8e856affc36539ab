import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * Every operator action, append-only: the database refuses updates and deletes of its rows
 * (migration trigger). Actor and target are kept as text, not foreign keys, so deleting an
 * account leaves its history readable.
 */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: text('actor_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    /** Whom or what it was done to: an e-mail address, or the limits. */
    target: text('target').notNull(),
    detail: jsonb('detail'),
  },
  (t) => [index('admin_audit_at_idx').on(t.at, t.id)],
)

/** Single-use sign-up links an operator mailed to an address (waitlist invites). */
export const invites = pgTable(
  'invites',
  {
    // HMAC of the link's token, like sessions and account tokens.
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    invitedBy: text('invited_by').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invites_email_idx').on(t.email)],
)

/**
 * The plan limits an operator set; a plan without a row uses the defaults in code. Read by every
 * node on each send, so a change applies everywhere at once.
 */
export const planLimits = pgTable('plan_limits', {
  plan: text('plan', { enum: ['free', 'premium'] }).primaryKey(),
  charsPer30Days: integer('chars_per_30_days').notNull(),
  sendsPerMinute: integer('sends_per_minute').notNull(),
  repliesAtOnce: integer('replies_at_once').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})
