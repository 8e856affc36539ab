import { Hono, type MiddlewareHandler } from 'hono'
import {
  type AdminLimits,
  type AdminPerson,
  adminAuditQuery,
  adminDeleteBody,
  adminInviteBody,
  adminLimitsSchema,
  adminRoleBody,
  adminUsageQuery,
  adminUsersQuery,
  USAGE_MAX_DAYS,
} from '#contract/admin.ts'
import { publicOrigin } from '#server/env.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv, UserRow } from '#server/lib/context.ts'
import { toCsv } from '#server/lib/csv.ts'
import { INVITE_DAYS, issueInvite } from '#server/lib/invites.ts'
import { mailerFor } from '#server/lib/mail/mailer.ts'
import { inviteMail } from '#server/lib/mail/messages.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { operatorSource } from '#server/lib/roles.ts'
import { requireUser } from '#server/lib/session.ts'
import { validate } from '#server/lib/validate.ts'
import { defaultLimits } from './limits.ts'
import {
  audit,
  findPerson,
  listAudit,
  listPeople,
  listWaitlist,
  monthEmitted,
  type PersonRow,
  saveLimits,
  setRole,
  setSuspended,
  storedLimits,
  usageReport,
} from './queries.ts'

export interface AdminHooks {
  /** Deletes an account with every feature's clean-up (composed in app.ts). */
  deleteAccount: (user: UserRow, log: AppEnv['Variables']['log']) => Promise<boolean>
}

const AUDIT_PAGE = 100
const DAY_MS = 86_400_000

/** 401 without a session, 403 for anyone who is not an operator. */
function requireOperator(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const signedIn = requireUser(deps)
  return (c, next) =>
    signedIn(c, async () => {
      if (!operatorSource(deps.env, c.get('user')))
        throw new AppError('forbidden:admin', 'Only operators of this Loris can open the console')
      await next()
    })
}

function personJson(env: AppDeps['env'], p: PersonRow, now: Date): AdminPerson {
  const premium = p.isPremium && (!p.subscriptionEndDate || p.subscriptionEndDate > now)
  return {
    id: p.id,
    email: p.email,
    emailVerified: p.emailVerifiedAt !== null,
    plan: premium ? 'premium' : 'free',
    createdAt: p.createdAt.toISOString(),
    lastActiveAt: p.lastActiveAt?.toISOString() ?? null,
    suspendedAt: p.suspendedAt?.toISOString() ?? null,
    operator: operatorSource(env, p),
    usage: { inputChars: p.aiInputChars, outputChars: p.aiOutputChars },
    co2SavedGrams: p.co2Saved,
    treesPlanted: p.treesPlanted,
    threads: p.threads,
  }
}

const csvAnswer = (body: string, name: string) =>
  new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}"`,
    },
  })

/** /api/admin/*: the operator's console (decision 063). */
export function adminRoutes(deps: AppDeps, hooks: AdminHooks) {
  const { db } = deps.database
  const now = () => deps.now?.() ?? new Date()
  const operator = requireOperator(deps)
  const actor = (c: { get(key: 'user'): UserRow }) => ({ id: c.get('user').id, email: c.get('user').email })

  /** The person an action is about; an operator acts on others, never on themselves. */
  async function target(c: { get(key: 'user'): UserRow }, id: string): Promise<UserRow> {
    const person = /^[0-9a-f-]{36}$/i.test(id) ? await findPerson(db, id) : undefined
    if (!person) throw new AppError('not_found:person', 'No account has this id. Reload the list of people.')
    if (person.id === c.get('user').id)
      throw new AppError('forbidden:self', 'You cannot do this to your own account from the console')
    return person
  }

  async function limits(): Promise<AdminLimits> {
    const stored = await storedLimits(db)
    return { free: stored.free ?? defaultLimits.free, premium: stored.premium ?? defaultLimits.premium }
  }

  return new Hono<AppEnv>()
    .use('/admin/*', operator)
    .get('/admin/users', validate('query', adminUsersQuery), async (c) => {
      const page = await listPeople(db, c.req.valid('query'), now())
      return c.json(
        { people: page.people.map((p) => personJson(deps.env, p, now())), nextCursor: page.nextCursor },
        200,
      )
    })
    .post('/admin/users/:id/:action{suspend|restore}', async (c) => {
      const person = await target(c, c.req.param('id'))
      const action = c.req.param('action') === 'suspend' ? 'suspend' : 'restore'
      await db.transaction(async (tx) => {
        await setSuspended(tx, person.id, action === 'suspend')
        await audit(tx, { actor: actor(c), action, target: person.email })
      })
      return c.json({ ok: true as const }, 200)
    })
    .put('/admin/users/:id/role', validate('json', adminRoleBody), async (c) => {
      const person = await target(c, c.req.param('id'))
      const { operator: grant } = c.req.valid('json')
      if (!grant && operatorSource(deps.env, { ...person, role: null }) === 'config')
        throw new AppError(
          'conflict:role',
          'This address is an operator by the server configuration (ADMIN_EMAILS); remove it there instead',
        )
      await db.transaction(async (tx) => {
        await setRole(tx, person.id, grant)
        await audit(tx, {
          actor: actor(c),
          action: grant ? 'grant-operator' : 'remove-operator',
          target: person.email,
        })
      })
      return c.json({ ok: true as const }, 200)
    })
    .delete('/admin/users/:id', validate('json', adminDeleteBody), async (c) => {
      const person = await target(c, c.req.param('id'))
      if (c.req.valid('json').confirmEmail !== person.email)
        throw new AppError('bad_request:confirm', `Type ${person.email} exactly to delete this account`)
      if (!(await hooks.deleteAccount(person, c.get('log'))))
        throw new AppError('not_found:person', 'This account was already deleted')
      await audit(db, { actor: actor(c), action: 'delete', target: person.email })
      return c.json({ ok: true as const }, 200)
    })
    .get('/admin/waitlist', async (c) => {
      const rows = await listWaitlist(db)
      if (c.req.query('format') === 'csv')
        return csvAnswer(
          toCsv(
            ['email', 'joined_at', 'invited_at', 'registered'],
            rows.map((r) => [
              r.email,
              r.createdAt.toISOString(),
              r.invitedAt ? new Date(r.invitedAt).toISOString() : null,
              r.registered ? 'yes' : 'no',
            ]),
          ),
          'loris-waitlist.csv',
        )
      return c.json(
        {
          entries: rows.map((r) => ({
            email: r.email,
            createdAt: r.createdAt.toISOString(),
            invitedAt: r.invitedAt ? new Date(r.invitedAt).toISOString() : null,
            registered: Boolean(r.registered),
          })),
        },
        200,
      )
    })
    .post('/admin/waitlist/invite', validate('json', adminInviteBody), async (c) => {
      const { email } = c.req.valid('json')
      await enforceRateLimit(db, `admin-invite:${c.get('user').id}`, { limit: 200, windowSeconds: 3600 })
      const invite = await issueInvite(db, deps.secret, { email, invitedBy: c.get('user').email, now: now() })
      const link = new URL('/auth', publicOrigin(deps.env))
      link.searchParams.set('tab', 'signup')
      link.searchParams.set('email', email)
      link.searchParams.set('invite', invite.token)
      try {
        await mailerFor(deps).deliver(inviteMail(email, link.toString(), INVITE_DAYS))
      } catch (err) {
        c.get('log').warn({ err }, 'invitation mail failed')
        throw new AppError(
          'bad_gateway:mail',
          'The invitation could not be sent: the mail server refused it. Try again.',
        )
      }
      await audit(db, { actor: actor(c), action: 'invite', target: email })
      return c.json({ ok: true as const, expiresAt: invite.expiresAt.toISOString() }, 200)
    })
    .get('/admin/usage', validate('query', adminUsageQuery), async (c) => {
      const { from, to, by, format } = c.req.valid('query')
      const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1
      if (!(days >= 1 && days <= USAGE_MAX_DAYS))
        throw new AppError(
          'bad_request:range',
          `Choose a range of 1 to ${USAGE_MAX_DAYS} days, with "from" on or before "to"`,
        )
      await enforceRateLimit(db, `admin-usage:${c.get('user').id}`, { limit: 60, windowSeconds: 60 })
      const report = await usageReport(db, { from, to }, by)
      if (format === 'csv') {
        const header = ['key', ...Object.keys(report.totals)]
        return csvAnswer(
          toCsv(
            [by, ...header.slice(1)],
            report.rows.map((r) => [r.key, ...Object.keys(report.totals).map((k) => r[k as keyof typeof r])]),
          ),
          `loris-usage-by-${by}-${from}-to-${to}.csv`,
        )
      }
      return c.json(
        { by, rows: report.rows, totals: report.totals, monthEmitted: await monthEmitted(db) },
        200,
      )
    })
    .get('/admin/limits', async (c) => c.json({ ...(await limits()), defaults: defaultLimits }, 200))
    .put('/admin/limits', validate('json', adminLimitsSchema), async (c) => {
      const before = await limits()
      const next = c.req.valid('json')
      await db.transaction(async (tx) => {
        await saveLimits(tx, next)
        await audit(tx, {
          actor: actor(c),
          action: 'limits',
          target: 'plan limits',
          detail: { before, after: next },
        })
      })
      return c.json({ ...next, defaults: defaultLimits }, 200)
    })
    .get('/admin/audit', validate('query', adminAuditQuery), async (c) => {
      const { cursor, format } = c.req.valid('query')
      const page = await listAudit(db, cursor, format === 'csv' ? 10_000 : AUDIT_PAGE)
      const entries = page.entries.map((e) => ({
        id: e.id,
        at: e.at.toISOString(),
        actorEmail: e.actorEmail,
        action: e.action,
        target: e.target,
        detail: (e.detail as Record<string, unknown> | null) ?? null,
      }))
      if (format === 'csv')
        return csvAnswer(
          toCsv(
            ['at', 'operator', 'action', 'target', 'detail'],
            entries.map((e) => [
              e.at,
              e.actorEmail,
              e.action,
              e.target,
              e.detail ? JSON.stringify(e.detail) : null,
            ]),
          ),
          'loris-audit.csv',
        )
      return c.json({ entries, nextCursor: page.nextCursor }, 200)
    })
}
