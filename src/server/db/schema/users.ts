import { sql } from 'drizzle-orm'
import { boolean, doublePrecision, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  // Null for accounts that only sign in with Google.
  passwordHash: text('password_hash'),
  googleId: text('google_id').unique(),
  // When the person proved they read mail at `email` (a link, or Google vouching for it). Null
  // means unverified: Google sign-in then must not simply join this account (decision 010).
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  isPremium: boolean('is_premium').notNull().default(false),
  subscriptionStartDate: timestamp('subscription_start_date', { withTimezone: true }),
  subscriptionEndDate: timestamp('subscription_end_date', { withTimezone: true }),
  stripeCustomerId: text('stripe_customer_id').unique(),
  stripeSubscriptionId: text('stripe_subscription_id'),
  subscriptionStatus: text('subscription_status'),
  // When the stored subscription state was last taken from Stripe; older events never overwrite it.
  subscriptionSyncedAt: timestamp('subscription_synced_at', { withTimezone: true }),
  // Grams of CO2eq saved: midpoint shown, and the bounds summed min-to-min, max-to-max.
  co2Saved: doublePrecision('co2_saved').notNull().default(0),
  co2SavedMin: doublePrecision('co2_saved_min').notNull().default(0),
  co2SavedMax: doublePrecision('co2_saved_max').notNull().default(0),
  treesPlanted: integer('trees_planted').notNull().default(0),
  // The person's sent messages (origins sent and edit, not failed): the count behind a tree on
  // every second message and the upgrade prompt. Kept by the database's triggers on messages
  // (migration 0015), so a reply's end reads it instead of counting the whole history.
  sentMessages: integer('sent_messages').notNull().default(0),
  aiInputChars: integer('ai_input_chars').notNull().default(0),
  aiOutputChars: integer('ai_output_chars').notNull().default(0),
  // Input characters of sends accepted but not yet settled (their reply is still being written).
  // The limit check counts them, in the same statement that adds to them (chat/send-statement.ts).
  aiReservedChars: integer('ai_reserved_chars').notNull().default(0),
  // Replies of this user admitted and not yet settled: the limit of replies generating at once
  // is checked on this row in the statement that admits a send (docs/decisions/021).
  aiGenerating: integer('ai_generating').notNull().default(0),
  aiUsageStartDate: timestamp('ai_usage_start_date', { withTimezone: true }).notNull().defaultNow(),
  lastAiUsageReset: timestamp('last_ai_usage_reset', { withTimezone: true }).notNull().defaultNow(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  // Raised with the password (a reset, an account recovered, Google taking over the account): a
  // session holds the value its sign-in read with the credential it checked, and is good only
  // while the two agree. A sign-in racing a reset cannot keep a session the reset ended (041).
  sessionEpoch: integer('session_epoch').notNull().default(0),
  // 'operator' when an operator granted the console to this account; ADMIN_EMAILS makes an
  // operator of a verified address without it (features/admin/roles.ts).
  role: text('role', { enum: ['operator'] }),
  // Set by an operator: the account cannot sign in and its sessions are gone.
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
})

export const sessions = pgTable(
  'sessions',
  {
    // HMAC of the cookie token: a leaked table cannot be replayed as cookies.
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    userAgent: text('user_agent'),
    // The user's session_epoch when the credential was checked (users.sessionEpoch).
    epoch: integer('epoch').notNull().default(0),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
)

export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull().default(sql`now()`),
  count: integer('count').notNull().default(0),
})

/**
 * Single-use links sent by e-mail: verify an address, reset a password. Only the HMAC of the
 * token is stored, so a leaked table opens nothing; `email` pins a verification to the address
 * it was sent to, so a link for an old address cannot verify a new one.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password', 'recover_account'] }).notNull(),
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_tokens_user_idx').on(t.userId, t.purpose)],
)

/**
 * Notices to an account's owner that its address or password changed (decision 043), written in
 * the change's own transaction and deleted once sent: a crash between the change and its mail
 * no longer loses the owner's one way back. `notBefore` is when the row may next be claimed: a
 * sender claims it for a while (a crash mid-send retries it then), a failed send waits longer.
 */
export const securityNotices = pgTable(
  'security_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['email-changed', 'password-changed'] }).notNull(),
    /** The address told: the confirmed one before the change, or the account's after a reset. */
    toEmail: text('to_email').notNull(),
    /** 'email-changed': the address it became. */
    newEmail: text('new_email'),
    attempts: integer('attempts').notNull().default(0),
    notBefore: timestamp('not_before', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('security_notices_due_idx').on(t.notBefore)],
)
