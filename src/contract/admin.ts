import { z } from 'zod'
import { emailSchema } from './auth.ts'

// The operator's console (/admin, /api/admin/*): people, the waitlist, usage and impact, plan
// limits and the audit log. Only operators reach any of it (401 without a session, 403 else).

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date written as YYYY-MM-DD')

/** Why a person is an operator: the server's ADMIN_EMAILS, or a grant from another operator. */
export const operatorSourceSchema = z.enum(['config', 'granted'])

export const adminPersonSchema = z.object({
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  plan: z.enum(['free', 'premium']),
  createdAt: z.string(),
  /** The last message they sent or their last sign-in, whichever is later; null if neither. */
  lastActiveAt: z.string().nullable(),
  suspendedAt: z.string().nullable(),
  operator: operatorSourceSchema.nullable(),
  usage: z.object({ inputChars: z.number().int(), outputChars: z.number().int() }),
  co2SavedGrams: z.number(),
  treesPlanted: z.number().int(),
  threads: z.number().int(),
})
export type AdminPerson = z.infer<typeof adminPersonSchema>

export const ADMIN_PAGE_SIZE = 50

export const adminUsersQuery = z.object({
  q: z.string().trim().max(254, 'Search for at most 254 characters').optional(),
  plan: z.enum(['free', 'premium']).optional(),
  createdFrom: isoDate.optional(),
  createdTo: isoDate.optional(),
  /** Only people active on or after this day. */
  activeFrom: isoDate.optional(),
  cursor: z.string().max(200).optional(),
})
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>

export const adminUsersResponse = z.object({
  people: z.array(adminPersonSchema),
  nextCursor: z.string().nullable(),
})
export type AdminUsersResponse = z.infer<typeof adminUsersResponse>

export const adminRoleBody = z.object({ operator: z.boolean() })

/** Deleting a person is confirmed by typing their address. */
export const adminDeleteBody = z.object({ confirmEmail: emailSchema })

export const adminWaitlistEntry = z.object({
  email: z.string(),
  createdAt: z.string(),
  /** When the newest invite went out, if one did. */
  invitedAt: z.string().nullable(),
  /** The address has an account now. */
  registered: z.boolean(),
})
export const adminWaitlistResponse = z.object({ entries: z.array(adminWaitlistEntry) })
export type AdminWaitlistResponse = z.infer<typeof adminWaitlistResponse>

export const adminInviteBody = z.object({ email: emailSchema })
export const adminInviteResponse = z.object({ ok: z.literal(true), expiresAt: z.string() })

export const USAGE_MAX_DAYS = 366

export const adminUsageQuery = z.object({
  from: isoDate,
  to: isoDate,
  by: z.enum(['day', 'model', 'plan']).default('day'),
  format: z.enum(['json', 'csv']).default('json'),
})
export type AdminUsageQuery = z.infer<typeof adminUsageQuery>

export const usageFiguresSchema = z.object({
  replies: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  inputChars: z.number().int(),
  outputChars: z.number().int(),
  /** Grams CO2eq (midpoints). */
  co2Emitted: z.number(),
  co2Saved: z.number(),
  energyWh: z.number(),
  waterL: z.number(),
})
export type UsageFigures = z.infer<typeof usageFiguresSchema>

export const adminUsageResponse = z.object({
  by: z.enum(['day', 'model', 'plan']),
  rows: z.array(usageFiguresSchema.extend({ key: z.string() })),
  totals: usageFiguresSchema,
  /** The whole service's emissions this calendar month (UTC), grams. */
  monthEmitted: z.number(),
})
export type AdminUsageResponse = z.infer<typeof adminUsageResponse>

const limitInt = (what: string, max: number) =>
  z
    .number({ error: `${what} must be a whole number` })
    .int(`${what} must be a whole number`)
    .min(1, `${what} must be at least 1`)
    .max(max, `${what} must be at most ${max.toLocaleString('en-US')}`)

export const planLimitsSchema = z.object({
  charsPer30Days: limitInt('Characters per 30 days', 1_000_000_000),
  sendsPerMinute: limitInt('Sends per minute', 1_000),
  repliesAtOnce: limitInt('Replies at once', 100),
})
export type PlanLimits = z.infer<typeof planLimitsSchema>

export const adminLimitsSchema = z.object({ free: planLimitsSchema, premium: planLimitsSchema })
export type AdminLimits = z.infer<typeof adminLimitsSchema>
export const adminLimitsResponse = adminLimitsSchema.extend({ defaults: adminLimitsSchema })

export const adminAuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  target: z.string(),
  detail: z.record(z.string(), z.unknown()).nullable(),
})
export const adminAuditQuery = z.object({
  cursor: z.string().max(200).optional(),
  format: z.enum(['json', 'csv']).default('json'),
})
export const adminAuditResponse = z.object({
  entries: z.array(adminAuditEntry),
  nextCursor: z.string().nullable(),
})
export type AdminAuditResponse = z.infer<typeof adminAuditResponse>
