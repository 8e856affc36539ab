// Reads mail Loris wrote: the outbox's .eml files (no SMTP configured) or raw SMTP DATA.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

export interface Mail {
  file?: string
  to: string
  subject: string
  text: string
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

/** Headers (unfolded) and the decoded text of a single-part message. */
export function parseMail(raw: string, file?: string): Mail {
  const split = raw.search(/\r?\n\r?\n/)
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ')
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '')
  const header = (name: string) => head.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'))?.[1]?.trim() ?? ''
  const encoding = header('Content-Transfer-Encoding').toLowerCase()
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body
  return { file, to: header('To'), subject: header('Subject'), text: text.replace(/\r\n/g, '\n') }
}

/** Every message in DATA_DIR/outbox, oldest first. */
export function readOutbox(dataDir: string): Mail[] {
  const dir = path.join(dataDir, 'outbox')
  let files: string[]
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'))
  } catch {
    return []
  }
  return files.sort().map((f) => parseMail(readFileSync(path.join(dir, f), 'utf8'), f))
}

/** The newest message to `to` whose subject matches, if any. */
export function latestMailTo(dataDir: string, to: string, subject: RegExp): Mail | undefined {
  return readOutbox(dataDir)
    .filter((m) => m.to.toLowerCase().includes(to.toLowerCase()) && subject.test(m.subject))
    .at(-1)
}

/** The first link in a mail that opens `pagePath`, e.g. /verify-email. */
export function linkIn(mail: Mail, pagePath: string): URL {
  const found = mail.text.match(new RegExp(`https?://\\S+${pagePath}\\?token=[A-Za-z0-9_%-]+`))
  if (!found) throw new Error(`no ${pagePath} link in "${mail.subject}":\n${mail.text}`)
  return new URL(found[0])
}

/** Waits until a message to `to` whose subject matches is in the outbox (the server writes it after answering). */
export async function waitForMail(
  dataDir: string,
  to: string,
  subject: RegExp,
  opts: { timeoutMs?: number; after?: number } = {},
): Promise<Mail> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000)
  for (;;) {
    const found = readOutbox(dataDir).filter(
      (m) => m.to.toLowerCase().includes(to.toLowerCase()) && subject.test(m.subject),
    )
    const mail = found[opts.after ?? 0]
    if (mail) return mail
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} in ${dataDir}/outbox`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
