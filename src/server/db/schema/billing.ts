import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'

// Stripe delivers at least once: each event id is recorded so it is processed once.
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  eventCreatedAt: timestamp('event_created_at', { withTimezone: true }).notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
})
