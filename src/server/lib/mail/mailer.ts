// Outgoing e-mail through nodemailer. With SMTP_URL it speaks SMTP; without it (the embedded
// default) nodemailer's stream transport builds the same RFC 5322 message and it is written to
// DATA_DIR/outbox/ as an .eml file, named in the log, so a self-hosted instance still works.
import { randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Logger } from 'pino'
import type { Db } from '#server/db/client.ts'
import type { Env } from '#server/env.ts'
import { publicOrigin } from '#server/env.ts'
import { countInWindow } from '../rate-limit.ts'

export interface OutgoingMail {
  to: string
  subject: string
  text: string
  /** What the message is for, in the log and the outbox file name (never the address). */
  kind: string
  /**
   * A notice to the account's owner that its address or password changed, sent only to an address
   * the owner proved (decision 041): never held back by the per-address budget, which anyone can
   * spend with "Forgot password?", since it may be the one mail that lets the owner take the
   * account back. It still counts towards that budget.
   */
  security?: true
}

export interface Mailer {
  /**
   * Sends in the background: a request never waits on (or reveals timing of) mail delivery.
   * Failures are logged; the person can ask again ("resend", "forgot password").
   */
  send(mail: OutgoingMail): void
  /**
   * Works out the mail after the response, then sends it. Forgot-password uses it so the answer
   * takes the same time whether or not the address has an account.
   */
  sendLater(compose: () => Promise<OutgoingMail | null>): void
  /**
   * Sends now and settles with the outcome (it rejects when the mail could not be sent): the
   * security notices' outbox deletes a row only once its mail is out.
   */
  deliver(mail: OutgoingMail): Promise<void>
  /** Background work `settled()` waits for, as for a send (the outbox's drain after a request). */
  track(work: Promise<unknown>): void
  /** Resolves once every send started so far has finished (tests, shutdown). */
  settled(): Promise<void>
}

export function outboxDir(env: Env): string {
  return path.join(env.DATA_DIR, 'outbox')
}

function defaultFrom(env: Env): string {
  return env.MAIL_FROM ?? `Loris <no-reply@${new URL(publicOrigin(env)).hostname}>`
}

/**
 * Mail one address may receive, across every kind and every account: each route has its own
 * limits, but together (an e-mail change to the address and back, from a few accounts) they let
 * anyone fill a stranger's inbox with Loris mail. Past it, mail to that address waits for the
 * window: the log says so, the request that caused it does not.
 */
export const MAIL_PER_ADDRESS = { hour: 8, day: 24 }

/** Whether `to` may receive another mail now (and counts it). */
export type RecipientBudget = (to: string) => Promise<boolean>

export function createMailer(env: Env, log: Logger, budget?: RecipientBudget): Mailer {
  const from = defaultFrom(env)
  // nodemailer is loaded with the first message, not with the server (decision 022).
  const transports = once(async () => {
    const { default: nodemailer } = await import('nodemailer')
    const smtp = env.SMTP_URL ? nodemailer.createTransport(env.SMTP_URL) : undefined
    const stream = smtp ? undefined : nodemailer.createTransport({ streamTransport: true, buffer: true })
    return { smtp, stream }
  })
  const pending = new Set<Promise<void>>()

  async function deliver(mail: OutgoingMail): Promise<void> {
    if (budget && !(await budget(mail.to)) && !mail.security) {
      log.warn({ kind: mail.kind }, 'e-mail held back: this address had its share of mail for now')
      return
    }
    const message = { from, to: mail.to, subject: mail.subject, text: mail.text }
    const { smtp, stream } = await transports()
    if (smtp) {
      const info = await smtp.sendMail(message)
      log.info({ kind: mail.kind, messageId: info.messageId }, 'e-mail sent over SMTP')
      return
    }
    const info = await (stream as NonNullable<typeof stream>).sendMail(message)
    const dir = outboxDir(env)
    await mkdir(dir, { recursive: true, mode: 0o700 })
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    const file = path.join(dir, `${stamp}-${mail.kind}-${randomBytes(4).toString('hex')}.eml`)
    await writeFile(file, info.message as Buffer, { mode: 0o600 })
    log.info({ kind: mail.kind, file }, 'e-mail written to the outbox (no SMTP_URL configured)')
  }

  function track(work: Promise<unknown>) {
    const settledWork = work.then(
      () => undefined,
      () => undefined,
    )
    pending.add(settledWork)
    void settledWork.finally(() => pending.delete(settledWork))
  }

  return {
    send(mail) {
      track(
        deliver(mail).catch((err: unknown) => {
          log.error({ err, kind: mail.kind }, 'e-mail could not be sent')
        }),
      )
    },
    sendLater(compose) {
      track(
        (async () => {
          // Off the request's path, so its duration does not depend on what is composed.
          await new Promise((resolve) => setImmediate(resolve))
          const mail = await compose()
          if (mail) await deliver(mail)
        })().catch((err: unknown) => {
          log.error({ err }, 'e-mail could not be prepared or sent')
        }),
      )
    },
    deliver,
    track,
    async settled() {
      while (pending.size > 0) await Promise.all([...pending])
    },
  }
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null
  return () => {
    made ??= make()
    // A failed load is tried again with the next message.
    made.catch(() => {
      made = null
    })
    return made
  }
}

// One mailer per app (deps object): features share its transport and its pending set.
const mailers = new WeakMap<object, Mailer>()

/** Counted in the database's rate_limits, so every app node shares an address's budget. */
function recipientBudget(db: Db): RecipientBudget {
  return async (to) => {
    const address = to.trim().toLowerCase()
    const { count: hour } = await countInWindow(db, `mail:to:hour:${address}`, 60 * 60)
    const { count: day } = await countInWindow(db, `mail:to:day:${address}`, 24 * 60 * 60)
    return hour <= MAIL_PER_ADDRESS.hour && day <= MAIL_PER_ADDRESS.day
  }
}

export function mailerFor(deps: { env: Env; log: Logger; database?: { db: Db } }): Mailer {
  let mailer = mailers.get(deps)
  if (!mailer) {
    mailer = createMailer(deps.env, deps.log, deps.database ? recipientBudget(deps.database.db) : undefined)
    mailers.set(deps, mailer)
  }
  return mailer
}
