// The outbox of security notices (decision 043): "your address was changed" and "your password
// was changed". Each is a row written in the change's own transaction, sent right after the
// change, and deleted once sent; a row a crash or a failed send left behind is sent by the
// repeating job on any node. Queued in memory after the change committed, a notice would be lost
// by a crash in between, and with it the old address's only link back to the account.
import { and, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Db, Tx } from '#server/db/client.ts'
import { securityNotices } from '#server/db/schema/index.ts'
import { issueToken, TOKEN_TTL_MINUTES } from '#server/lib/account-tokens.ts'
import type { AppDeps } from '#server/lib/context.ts'
import { linkTo, RESET_PASSWORD_PATH } from '#server/lib/email-verification.ts'
import { type RepeatingJob, startRepeatingJob } from '#server/lib/repeating-job.ts'
import { mailerFor, type OutgoingMail } from './mailer.ts'
import { emailChangedNotice, passwordChangedNotice } from './messages.ts'

type Notice = typeof securityNotices.$inferSelect
export type NewNotice =
  | { kind: 'email-changed'; userId: string; toEmail: string; newEmail: string }
  | { kind: 'password-changed'; userId: string; toEmail: string }

/** How long a sender holds a claimed row: a node that died mid-send leaves it for this long. */
export const CLAIM_SECONDS = 120
/** A failed send waits this many seconds per attempt so far before the next (1, 2, 3... min). */
const RETRY_STEP_SECONDS = 60
/** After this many failed attempts (about 3.5 hours of retries), the row is dropped and logged. */
export const MAX_ATTEMPTS = 20
/** Rows claimed per statement. */
const BATCH = 20
/** The repeating job's period: what a crash or an unreachable mail server delays a notice by. */
export const SWEEP_MS = 60_000

/** Written inside the change's transaction: the change and its notice commit together. */
export async function queueSecurityNotice(tx: Tx | Db, notice: NewNotice): Promise<void> {
  await tx.insert(securityNotices).values({
    userId: notice.userId,
    kind: notice.kind,
    toEmail: notice.toEmail,
    newEmail: notice.kind === 'email-changed' ? notice.newEmail : null,
  })
}

/** Sends due notices now, in the background of the request that queued one. */
export function sendSecurityNoticesSoon(deps: AppDeps): void {
  mailerFor(deps).track(sendDueSecurityNotices(deps).catch(sendFailed(deps)))
}

const sendFailed = (deps: AppDeps) => (err: unknown) =>
  deps.log.warn({ err }, 'sending security notices failed; the outbox keeps them')

/**
 * Claims the due rows (skipping those another node holds), sends each, deletes it once sent. A
 * failed send leaves its row for a later attempt. Returns how many were sent.
 */
export async function sendDueSecurityNotices(deps: AppDeps): Promise<number> {
  const { db } = deps.database
  let sent = 0
  for (;;) {
    const claimed = await claimDue(db)
    for (const notice of claimed) if (await sendOne(deps, notice)) sent++
    if (claimed.length < BATCH) return sent
  }
}

async function claimDue(db: Db): Promise<Notice[]> {
  const due = db
    .select({ id: securityNotices.id })
    .from(securityNotices)
    .where(lte(securityNotices.notBefore, sql`now()`))
    .orderBy(securityNotices.notBefore)
    .limit(BATCH)
    .for('update', { skipLocked: true })
  return db
    .update(securityNotices)
    .set({
      attempts: sql`${securityNotices.attempts} + 1`,
      notBefore: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`,
    })
    .where(inArray(securityNotices.id, due))
    .returning()
}

async function sendOne(deps: AppDeps, notice: Notice): Promise<boolean> {
  const { db } = deps.database
  const log = deps.log.child({ kind: notice.kind, userId: notice.userId })
  try {
    await mailerFor(deps).deliver(await compose(deps, notice))
    await db.delete(securityNotices).where(eq(securityNotices.id, notice.id))
    return true
  } catch (err) {
    if (notice.attempts >= MAX_ATTEMPTS) {
      log.error({ err, attempts: notice.attempts }, 'security notice given up after repeated failures')
      await db.delete(securityNotices).where(eq(securityNotices.id, notice.id))
      return false
    }
    log.warn({ err, attempts: notice.attempts }, 'security notice not sent; it will be tried again')
    // Only while this sender still holds it (another may have claimed it since the hold ran out).
    await db
      .update(securityNotices)
      .set({ notBefore: sql`now() + make_interval(secs => ${notice.attempts * RETRY_STEP_SECONDS})` })
      .where(and(eq(securityNotices.id, notice.id), eq(securityNotices.attempts, notice.attempts)))
    return false
  }
}

async function compose(deps: AppDeps, notice: Notice): Promise<OutgoingMail> {
  if (notice.kind === 'password-changed') return passwordChangedNotice(notice.toEmail)
  // The link back is made when the mail is, so a notice sent late still carries a full term; a
  // retry's new link ends the one a failed attempt made (issueToken keeps one per address).
  const token = await issueToken(deps.database.db, deps.secret, {
    userId: notice.userId,
    purpose: 'recover_account',
    email: notice.toEmail,
    now: deps.now?.() ?? new Date(),
  })
  const days = TOKEN_TTL_MINUTES.recover_account / (24 * 60)
  return emailChangedNotice(
    notice.toEmail,
    notice.newEmail ?? '',
    linkTo(deps, RESET_PASSWORD_PATH, token),
    days,
  )
}

/** Sends what a crash or a failed send left: at start, then every minute, on every node. */
export function startSecurityNoticeSender(deps: AppDeps): RepeatingJob {
  return startRepeatingJob(() => sendDueSecurityNotices(deps), SWEEP_MS, {
    runNow: true,
    onError: sendFailed(deps),
  })
}
