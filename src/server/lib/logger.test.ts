// A failed query is logged by its SQL shape and the database's error, never
// with its bound parameters (message text, addresses).
import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import fs, { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest'
import { messages, users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts'
import { createLogger, LOG_BUFFER_MAX_BYTES, LOG_FLUSH_MS, serverLogDestination } from './logger.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

function capture() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk))
      done()
    },
  })
  // As the app logs: a request's child logger, the error under `err`.
  const log = createLogger({ level: 'info' }, stream).child({ reqId: 'r1' })
  return { log, lines }
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run()
  } catch (err) {
    return err
  }
  throw new Error('the query was expected to fail')
}

describe('a failed query in the log', () => {
  it('shows the SQL and the database error, not the message text it carried', async () => {
    const secret = 'my-private-diary-entry-4711'
    const err = await failure(() =>
      // A message for a user that does not exist: a foreign-key violation, with the text bound.
      t.deps.database.db.insert(messages).values({
        userId: '00000000-0000-4000-8000-000000000000',
        content: secret,
        response: `re: ${secret}`,
        chatModel: 'gemini',
      } as typeof messages.$inferInsert),
    )
    // The error as thrown does carry the values: that is what must not reach the log.
    expect(String((err as Error).message)).toContain(secret)
    const { log, lines } = capture()
    log.error({ err }, 'unhandled error')
    const line = lines.join('')
    expect(line).not.toContain(secret)
    const entry = JSON.parse(line)
    expect(entry.err.query).toMatch(/^insert into "messages"/)
    expect(entry.err.message).toMatch(/^Failed query: insert into "messages"/)
    expect(entry.err.params).toMatch(/parameter\(s\), not logged/)
    expect(entry.err.cause).toMatchObject({ code: '23503' })
  })

  it('drops the value a data error quotes, and the detail a unique violation quotes', async () => {
    const secret = 'not-a-uuid-but-a-secret'
    const typeError = await failure(() => t.deps.database.db.execute(sql`select ${secret}::uuid`))
    const email = `private-${Date.now()}@example.com`
    await t.deps.database.db.insert(users).values({ email })
    const unique = await failure(() => t.deps.database.db.insert(users).values({ email }))
    const { log, lines } = capture()
    log.error({ err: typeError }, 'unhandled error')
    log.error({ err: new Error('sending failed', { cause: unique }) }, 'unhandled error')
    const text = lines.join('')
    expect(text).not.toContain(secret)
    expect(text).not.toContain(email)
    const [first, second] = lines.map((l) => JSON.parse(l))
    expect(first.err.cause).toMatchObject({ code: '22P02', message: 'invalid input syntax for type uuid' })
    expect(second.err.message).toBe('sending failed')
    expect(second.err.cause.cause).toMatchObject({ code: '23505' })
  })

  it('logs other errors as before', () => {
    const { log, lines } = capture()
    log.error({ err: new Error('plain failure') }, 'unhandled error')
    expect(JSON.parse(lines[0] as string).err).toMatchObject({ type: 'Error', message: 'plain failure' })
  })
})

describe("the server's log output", () => {
  it('keeps at most LOG_BUFFER_MAX_BYTES in memory while its reader does not read', async () => {
    // A pipe (a FIFO) whose reader never reads: it fills after 64 KB, and every write after waits.
    // The destination owns the writing end; the test holds the reading end and never reads it.
    const dir = mkdtempSync(path.join(tmpdir(), 'loris-log-'))
    const fifo = path.join(dir, 'log')
    execFileSync('mkfifo', [fifo])
    const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
    try {
      const writeEnd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK)
      const destination = serverLogDestination(writeEnd) as unknown as NodeJS.EventEmitter & {
        destroy(): void
      }
      const errors: unknown[] = []
      destination.on('error', (err) => errors.push(err))
      let dropped = 0
      destination.on('drop', (data: string) => {
        dropped += Buffer.byteLength(data)
      })
      const closed = new Promise((resolve) => destination.once('close', resolve))
      const log = createLogger({ level: 'info' }, destination as never)
      const line = 'x'.repeat(1000)
      const lines = Math.ceil((LOG_BUFFER_MAX_BYTES * 1.5) / line.length)
      for (let i = 0; i < lines; i++) log.info({ i }, line)
      const written = lines * (line.length + 60)
      // A third of it did not fit: dropped, not kept.
      expect(dropped).toBeGreaterThan(written - LOG_BUFFER_MAX_BYTES - 2 * 1024 * 1024)
      expect(dropped).toBeLessThan(written)
      destination.destroy()
      await closed
      expect(errors).toEqual([])
    } finally {
      closeSync(readEnd)
      rmSync(dir, { recursive: true, force: true })
    }
  })

  /** A log destination on a fresh file, with fake timers and its writes counted. */
  async function withFileLog(
    run: (log: { destination: NodeJS.EventEmitter; file: string; writes: MockInstance }) => Promise<void>,
  ) {
    const dir = mkdtempSync(path.join(tmpdir(), 'loris-log-'))
    const file = path.join(dir, 'log')
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] })
    const writes = vi.spyOn(fs, 'write')
    try {
      const destination = serverLogDestination(openSync(file, 'w')) as unknown as NodeJS.EventEmitter & {
        destroy(): void
      }
      await run({ destination, file, writes })
      const closed = new Promise((resolve) => destination.once('close', resolve))
      destination.destroy()
      await closed
    } finally {
      writes.mockRestore()
      vi.useRealTimers()
      rmSync(dir, { recursive: true, force: true })
    }
  }

  it('writes a short line within a second, and nothing while nothing is logged', () =>
    withFileLog(async ({ destination, file, writes }) => {
      // Idle: no timer, so nothing wakes the server (an empty write every second woke a thread of
      // the pool, then the server again).
      expect(vi.getTimerCount()).toBe(0)
      vi.advanceTimersByTime(10 * LOG_FLUSH_MS)
      expect(writes).not.toHaveBeenCalled()

      const log = createLogger({ level: 'info' }, destination as never)
      log.info('one short line')
      expect(writes).not.toHaveBeenCalled()
      vi.advanceTimersByTime(LOG_FLUSH_MS)
      expect(writes).toHaveBeenCalledTimes(1)
      await vi.waitFor(() => expect(readFileSync(file, 'utf8')).toContain('one short line'))
      vi.advanceTimersByTime(10 * LOG_FLUSH_MS)
      expect(writes).toHaveBeenCalledTimes(1)
      expect(vi.getTimerCount()).toBe(0)
    }))

  // The flush reads two of sonic-boom's own fields (what it holds unwritten, whether a write is
  // under way): a sonic-boom that renamed them would fail here, not quietly in production.
  it('writes no empty block after a long line went out whole, and a line logged during a write after it', () =>
    withFileLog(async ({ destination, file, writes }) => {
      const log = createLogger({ level: 'info' }, destination as never)
      // Past the 4 KB block: written at once, and nothing is left to flush a second later.
      let written = once(destination, 'write')
      log.info('x'.repeat(5000))
      expect(writes).toHaveBeenCalledTimes(1)
      await written
      vi.advanceTimersByTime(LOG_FLUSH_MS)
      expect(writes).toHaveBeenCalledTimes(1)

      // A short line logged while a long one is being written: the flush a second later finds
      // that write under way and waits a second more, then writes the line.
      written = once(destination, 'write')
      log.info('y'.repeat(5000))
      log.info('the short line after')
      vi.advanceTimersByTime(LOG_FLUSH_MS)
      expect(writes).toHaveBeenCalledTimes(2)
      await written
      written = once(destination, 'write')
      vi.advanceTimersByTime(LOG_FLUSH_MS)
      expect(writes).toHaveBeenCalledTimes(3)
      await written
      expect(readFileSync(file, 'utf8')).toContain('the short line after')
    }))
})
