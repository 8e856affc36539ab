// Loopback SMTP server standing in for a mail provider: just enough of RFC 5321 for nodemailer
// (EHLO/HELO, AUTH PLAIN, MAIL, RCPT, DATA with dot-unstuffing, RSET, NOOP, QUIT). No TLS: it does
// not advertise STARTTLS, so a plain smtp:// URL stays plain. Messages are kept as received.
import { createServer, type Socket } from 'node:net'

export interface ReceivedMail {
  from: string
  to: string[]
  /** The raw RFC 5322 message (headers and body) as the client sent it. */
  data: string
  /** The user name the client authenticated with, if it did. */
  user?: string
}

export interface SmtpStandIn {
  /** smtp://user:pass@127.0.0.1:port, ready for SMTP_URL. */
  url: string
  messages: ReceivedMail[]
  /** Resolves once `count` messages have arrived. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMail[]>
  close(): Promise<void>
}

export async function startSmtpStandIn(): Promise<SmtpStandIn> {
  const messages: ReceivedMail[] = []
  const waiters = new Set<() => void>()
  const sockets = new Set<Socket>()

  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    socket.setEncoding('utf8')
    const reply = (line: string) => socket.write(`${line}\r\n`)
    let buffer = ''
    let inData = false
    let dataLines: string[] = []
    let envelope: { from: string; to: string[]; user?: string } = { from: '', to: [] }
    let user: string | undefined

    const onLine = (line: string) => {
      if (inData) {
        if (line === '.') {
          inData = false
          messages.push({ ...envelope, user, data: dataLines.join('\r\n') })
          envelope = { from: '', to: [] }
          dataLines = []
          reply('250 2.0.0 Ok: queued')
          for (const wake of waiters) wake()
          return
        }
        dataLines.push(line.startsWith('..') ? line.slice(1) : line)
        return
      }
      const [verb = '', ...rest] = line.split(' ')
      const arg = rest.join(' ')
      switch (verb.toUpperCase()) {
        case 'EHLO':
          socket.write('250-loris-smtp-stand-in\r\n250-8BITMIME\r\n250-AUTH PLAIN\r\n250 SMTPUTF8\r\n')
          return
        case 'HELO':
          return reply('250 loris-smtp-stand-in')
        case 'AUTH': {
          const [mech, initial] = arg.split(' ')
          if (mech?.toUpperCase() !== 'PLAIN' || !initial)
            return reply('504 5.5.4 Only AUTH PLAIN with an initial response')
          user = Buffer.from(initial, 'base64').toString('utf8').split('\0')[1]
          return reply('235 2.7.0 Authentication successful')
        }
        case 'MAIL':
          envelope = { from: arg.replace(/^FROM:\s*<([^>]*)>.*$/i, '$1'), to: [] }
          return reply('250 2.1.0 Ok')
        case 'RCPT':
          envelope.to.push(arg.replace(/^TO:\s*<([^>]*)>.*$/i, '$1'))
          return reply('250 2.1.5 Ok')
        case 'DATA':
          if (envelope.to.length === 0) return reply('554 5.5.1 No valid recipients')
          inData = true
          return reply('354 End data with <CR><LF>.<CR><LF>')
        case 'RSET':
          envelope = { from: '', to: [] }
          return reply('250 2.0.0 Ok')
        case 'NOOP':
          return reply('250 2.0.0 Ok')
        case 'QUIT':
          reply('221 2.0.0 Bye')
          socket.end()
          return
        default:
          return reply('502 5.5.2 Command not recognized')
      }
    }

    socket.on('data', (chunk: string) => {
      buffer += chunk
      let at = buffer.indexOf('\r\n')
      while (at !== -1) {
        const line = buffer.slice(0, at)
        buffer = buffer.slice(at + 2)
        onLine(line)
        at = buffer.indexOf('\r\n')
      }
    })
    reply('220 loris-smtp-stand-in ESMTP')
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  if (!address || typeof address !== 'object') throw new Error('SMTP stand-in has no port')

  return {
    url: `smtp://loris:secret@127.0.0.1:${address.port}`,
    messages,
    waitForMessages(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length >= count) {
            clearTimeout(timer)
            waiters.delete(check)
            resolve(messages.slice(0, count))
          }
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`SMTP stand-in: ${messages.length} of ${count} messages after ${timeoutMs} ms`))
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    },
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
