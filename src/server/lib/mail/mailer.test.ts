import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEnv } from '#server/env.ts'
import { parseMail, readOutbox } from '../../../../tests/helpers/mailbox.ts'
import { type SmtpStandIn, startSmtpStandIn } from '../../../../tests/stand-ins/smtp.ts'
import { createMailer } from './mailer.ts'

let smtp: SmtpStandIn
let dataDir: string
beforeAll(async () => {
  smtp = await startSmtpStandIn()
  dataDir = mkdtempSync(path.join(tmpdir(), 'loris-mail-'))
})
afterAll(async () => {
  await smtp?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const mail = {
  to: 'someone@example.com',
  subject: 'Confirm your e-mail address for Loris',
  text: 'Open https://loris.example/verify-email?token=abc_DEF-123 to confirm. Ünïcödé kept.',
  kind: 'verify-email',
}

describe('mailer', () => {
  it('sends over SMTP when SMTP_URL is set, from MAIL_FROM, and writes no outbox file', async () => {
    const lines: string[] = []
    const log = pino({ level: 'info' }, { write: (l: string) => lines.push(l) })
    const env = parseEnv({ SMTP_URL: smtp.url, MAIL_FROM: 'Loris <hello@loris.example>', DATA_DIR: dataDir })
    const mailer = createMailer(env, log)
    mailer.send(mail)
    await mailer.settled()
    const [received] = await smtp.waitForMessages(1)
    expect(received?.from).toBe('hello@loris.example')
    expect(received?.to).toEqual(['someone@example.com'])
    expect(received?.user).toBe('loris')
    const parsed = parseMail(received?.data ?? '')
    expect(parsed.subject).toBe(mail.subject)
    expect(parsed.text).toContain('https://loris.example/verify-email?token=abc_DEF-123')
    expect(parsed.text).toContain('Ünïcödé kept.')
    expect(readOutbox(dataDir)).toEqual([])
    expect(lines.join('')).toContain('e-mail sent over SMTP')
  })

  it('without SMTP_URL writes an .eml to DATA_DIR/outbox (mode 0700) and logs its name', async () => {
    const lines: string[] = []
    const log = pino({ level: 'info' }, { write: (l: string) => lines.push(l) })
    const mailer = createMailer(parseEnv({ DATA_DIR: dataDir, PUBLIC_URL: 'https://loris.example' }), log)
    mailer.sendLater(async () => mail)
    mailer.sendLater(async () => null)
    await mailer.settled()
    const [written, ...others] = readOutbox(dataDir)
    expect(others).toEqual([])
    expect(written?.to).toBe('someone@example.com')
    expect(written?.text).toContain('verify-email?token=abc_DEF-123')
    expect(statSync(path.join(dataDir, 'outbox')).mode & 0o777).toBe(0o700)
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.file)
    expect(logged.file).toBe(path.join(dataDir, 'outbox', written?.file ?? ''))
    // The log names the file, never the address.
    expect(lines.join('')).not.toContain('someone@example.com')
  })

  it('logs a failed delivery instead of throwing', async () => {
    const lines: string[] = []
    const log = pino({ level: 'info' }, { write: (l: string) => lines.push(l) })
    const dead = await startSmtpStandIn()
    const url = dead.url
    await dead.close()
    const mailer = createMailer(parseEnv({ SMTP_URL: url, DATA_DIR: dataDir }), log)
    mailer.send(mail)
    await mailer.settled()
    expect(lines.join('')).toContain('e-mail could not be sent')
  })
})
