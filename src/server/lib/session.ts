// Database sessions: the cookie holds a random token, the table only its HMAC.
// Edit with care: every signed-in request passes through here.
import { createHmac, randomBytes } from 'node:crypto'
import { and, eq, gt, lt, ne, type SQL, sql } from 'drizzle-orm'
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Db, Tx } from '#server/db/client.ts'
import { sessions, users } from '#server/db/schema/index.ts'
import { AppError } from './app-error.ts'
import type { AppDeps, AppEnv, SessionRow, UserRow } from './context.ts'

export const SESSION_COOKIE = 'loris_session'
/** What a suspended person reads when they try to sign in (an operator suspended the account). */
export const SUSPENDED =
  'This account is suspended, so it cannot sign in. If you think this is a mistake, reply to any e-mail from Loris to reach the team.'
const SESSION_DAYS = 30
// However often it is used, a session ends this long after its sign-in: a stolen cookie, or a
// device left signed in, does not stay good for ever (decision 041).
export const SESSION_MAX_DAYS = 90
const DAY_MS = 86_400_000
// Extend a sliding session at most once a day, so reads stay reads.
const REFRESH_AFTER_MS = DAY_MS

/** When a session used at `now` should end: 30 days on, but never past its absolute lifetime. */
function slidingExpiry(session: Pick<SessionRow, 'createdAt'>, now: number): number {
  return Math.min(now + SESSION_DAYS * DAY_MS, session.createdAt.getTime() + SESSION_MAX_DAYS * DAY_MS)
}

/** True when extending the session would move its end by more than the once-a-day step. */
function refreshDue(session: Pick<SessionRow, 'createdAt' | 'expiresAt'>, now: number): boolean {
  return slidingExpiry(session, now) - session.expiresAt.getTime() > REFRESH_AFTER_MS
}

export function hashToken(secret: string, token: string): string {
  return createHmac('sha256', secret).update(token).digest('hex')
}

function secureCookies(deps: AppDeps): boolean {
  return deps.env.PUBLIC_URL?.startsWith('https://') ?? false
}

function writeCookie(c: Context, deps: AppDeps, token: string, expires: Date) {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: secureCookies(deps),
    path: '/',
    expires,
  })
}

/**
 * Signs `user` in on this browser. `user` is the row as read when its credential was checked: its
 * session epoch goes into the session, so a password changed since then has already ended it.
 */
export async function startSession(
  c: Context,
  deps: AppDeps,
  user: Pick<UserRow, 'id' | 'sessionEpoch' | 'suspendedAt'>,
): Promise<void> {
  if (user.suspendedAt) throw new AppError('forbidden:suspended', SUSPENDED)
  const token = randomBytes(32).toString('base64url')
  const now = deps.now?.() ?? new Date()
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * DAY_MS)
  await deps.database.db.insert(sessions).values({
    id: hashToken(deps.secret, token),
    userId: user.id,
    epoch: user.sessionEpoch,
    expiresAt,
    userAgent: c.req.header('user-agent')?.slice(0, 300) ?? null,
  })
  writeCookie(c, deps, token, expiresAt)
}

export async function endSession(c: Context, deps: AppDeps): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE)
  if (token) {
    const id = hashToken(deps.secret, token)
    seenOn(deps.database.db).delete(id)
    await deps.database.db.delete(sessions).where(eq(sessions.id, id))
  }
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: secureCookies(deps) })
}

/**
 * Signs the user out everywhere except, optionally, the session `keepId` (the request's own):
 * after a password reset or when Google takes over an unverified account (decision 010).
 */
export async function endOtherSessions(db: Db | Tx, userId: string, keepId?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(keepId ? and(eq(sessions.userId, userId), ne(sessions.id, keepId)) : eq(sessions.userId, userId))
}

/**
 * The lookup every signed-in request makes, built once per database (drizzle's query builder
 * costs about as much as the embedded database's answer) and, on PostgreSQL, prepared once per
 * connection (a named statement: parsed and planned once).
 */
function prepareLookup(db: Db) {
  return db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, and(eq(users.id, sessions.userId), eq(users.sessionEpoch, sessions.epoch)))
    .where(and(eq(sessions.id, sql.placeholder('id')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .prepare('session_lookup')
}
const lookups = new WeakMap<Db, ReturnType<typeof prepareLookup>>()

function lookupSession(db: Db, id: string, now: Date) {
  let lookup = lookups.get(db)
  if (!lookup) {
    lookup = prepareLookup(db)
    lookups.set(db, lookup)
  }
  // A placeholder is not encoded by its column: the time goes as the text PostgreSQL reads.
  return lookup.execute({ id, now: now.toISOString() })
}

/** Finds the signed-in user for this request, extending the session when due. */
export async function readSession(
  c: Context,
  deps: AppDeps,
): Promise<{ user: UserRow; session: SessionRow } | null> {
  const token = getCookie(c, SESSION_COOKIE)
  if (!token) return null
  const now = deps.now?.() ?? new Date()
  const id = hashToken(deps.secret, token)
  const db = deps.database.db
  const [row] = await lookupSession(db, id, now)
  if (!row) {
    seenOn(db).delete(id)
    return null
  }
  if (refreshDue(row.session, now.getTime())) {
    const expiresAt = new Date(slidingExpiry(row.session, now.getTime()))
    await deps.database.db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id))
    writeCookie(c, deps, token, expiresAt)
    row.session.expiresAt = expiresAt
  }
  remember(db, id, row)
  return row
}

/**
 * Sessions this node has read lately, by their id (the token's HMAC), with their user's row as it
 * was then. Only a list page (decision 036) starts on one before reading it again (sessionGuess),
 * and the statement that reads the page checks the session itself.
 */
type Seen = { user: UserRow; session: SessionRow }
const SEEN_MAX = 10_000
const seenSessions = new WeakMap<Db, Map<string, Seen>>()

function seenOn(db: Db): Map<string, Seen> {
  let seen = seenSessions.get(db)
  if (!seen) {
    seen = new Map()
    seenSessions.set(db, seen)
  }
  return seen
}

function remember(db: Db, id: string, row: Seen): void {
  const seen = seenOn(db)
  // Re-inserted so the map's order is the order of use: the least recently read goes first.
  seen.delete(id)
  seen.set(id, row)
  if (seen.size > SEEN_MAX) seen.delete(seen.keys().next().value as string)
}

/**
 * A session this node read before, with its row and its user's as read then: to be confirmed by
 * the statement that uses it.
 */
export interface RememberedSession extends Seen {
  sessionId: string
}

/**
 * The session this request's cookie named when this node last read it, if it was valid then and
 * is not due to be extended (extending it is the lookup's work). Unconfirmed: the session may have
 * ended and the user's row changed since, on any node.
 */
export function sessionGuess(c: Context, deps: AppDeps): RememberedSession | null {
  const token = getCookie(c, SESSION_COOKIE)
  if (!token) return null
  const id = hashToken(deps.secret, token)
  const seen = seenOn(deps.database.db).get(id)
  if (!seen) return null
  const now = (deps.now?.() ?? new Date()).getTime()
  const expiresAt = seen.session.expiresAt.getTime()
  if (expiresAt <= now || refreshDue(seen.session, now)) return null
  return { sessionId: id, ...seen }
}

/** The signed-in user for a request that began on a guess: read now, else 401. */
export async function confirmSession(c: Context<AppEnv>, deps: AppDeps): Promise<UserRow> {
  // Read once: whatever it answers is the session as it is now.
  c.set('guessedSession', undefined)
  const found = await readSession(c, deps)
  if (!found) throw new AppError('unauthorized:session', 'Please sign in to continue')
  c.set('user', found.user)
  c.set('session', found.session)
  return found.user
}

/**
 * Work begun on a guessed session that could not confirm it (nothing read or written for it):
 * the route reads the session, answering 401 if it has ended, and does the work again.
 */
export class Unconfirmed extends Error {}

/** A session a read began on without reading it, and the app's clock then (as the lookup's). */
export interface GuessedSession {
  id: string
  now: Date
}

/**
 * True only while `sessionId` is a live session of `userId` at `now` (ISO text): what a read on a
 * guess checks. Each is a value or a shaped statement's placeholder.
 */
export function sessionLive(userId: unknown, sessionId: unknown, now: unknown): SQL {
  return sql`exists (select 1 from sessions s join users s_user on s_user.id = s.user_id
    where s.id = ${sessionId}::text and s.user_id = ${userId}::uuid and s.expires_at > ${now}::timestamptz
    and s.epoch = s_user.session_epoch)`
}

/** The values `sessionLive` takes for a guess: both null when there is none (the session was read). */
export function guessValues(guessed: GuessedSession | null | undefined): {
  sessionId: string | null
  now: string | null
} {
  return { sessionId: guessed?.id ?? null, now: guessed?.now.toISOString() ?? null }
}

/**
 * For work whose one statement checks the session itself (decision 036: the list pages). On a
 * session this node has read before, the request starts on that row and `guessedSession` names
 * it, which the route passes to its statement to check (`sessionLive`); `readOnSession` runs the
 * work. Any answer other than a success is given on the session as it is now: 401 once it has
 * ended. Without a guess the session is read first, as `requireUser` does.
 */
export function readsCheckSession(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const guess = sessionGuess(c, deps)
    if (!guess) {
      await confirmSession(c, deps)
      return next()
    }
    c.set('user', guess.user)
    c.set('session', guess.session)
    c.set('guessedSession', guess.sessionId)
    await next()
    if (c.get('guessedSession') && (c.error || c.res.status >= 300)) await confirmSession(c, deps)
  }
}

/** The signed-in user, read now if the request began on a guess: for work that does not check it. */
export async function readUser(c: Context<AppEnv>, deps: AppDeps): Promise<UserRow> {
  return c.get('guessedSession') ? confirmSession(c, deps) : c.get('user')
}

/**
 * Runs `read` with the guessed session for its statement to check (null once the session was
 * read); when it could not confirm the guess (`Unconfirmed`), reads the session and runs it again,
 * for the user as read now (`c.get('user')`).
 */
export async function readOnSession<T>(
  c: Context<AppEnv>,
  deps: AppDeps,
  read: (guessedSession: GuessedSession | null) => Promise<T>,
): Promise<T> {
  const guessed = c.get('guessedSession')
  if (guessed) {
    try {
      return await read({ id: guessed, now: deps.now?.() ?? new Date() })
    } catch (err) {
      if (!(err instanceof Unconfirmed)) throw err
    }
    await confirmSession(c, deps)
  }
  return read(null)
}

/** Routes behind this answer 401 unless a valid session cookie came with the request. */
export function requireUser(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await confirmSession(c, deps)
    await next()
  }
}

export async function pruneExpiredSessions(deps: AppDeps): Promise<void> {
  await deps.database.db.delete(sessions).where(lt(sessions.expiresAt, deps.now?.() ?? new Date()))
}
