// The server's logger. Errors go through `serializeError`, which never writes a failed query's
// bound parameters (they carry message text, e-mail addresses, titles; decision 008): a query error
// is logged as its SQL shape, how many parameters it had, and the database's error code and
// message, with the parts of the database error that quote values (detail, where) left out.
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino'

interface QueryError extends Error {
  query: string
  params: unknown[]
}

const isQueryError = (err: Error): err is QueryError =>
  typeof (err as Partial<QueryError>).query === 'string' && Array.isArray((err as Partial<QueryError>).params)

/** PostgreSQL (pg) and PGlite errors: a five-character SQLSTATE and a severity. */
const isDatabaseError = (err: Error) => {
  const e = err as { code?: unknown; severity?: unknown }
  return typeof e.code === 'string' && e.code.length === 5 && typeof e.severity === 'string'
}

function chainHasDatabaseError(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 8) return false
  return isQueryError(err) || isDatabaseError(err) || chainHasDatabaseError(err.cause, depth + 1)
}

/** The stack's frames without the message lines above them (a query error's message has params). */
const frames = (err: Error) =>
  (err.stack ?? '')
    .split('\n')
    .filter((line) => line.startsWith('    at '))
    .join('\n')

function databaseError(err: Error) {
  const e = err as Error & Record<string, unknown>
  const code = e.code as string
  // Class 22 (data exception) messages quote the offending value, e.g.
  // `invalid input syntax for type uuid: "..."`: keep the sentence, drop the value.
  const message = code.startsWith('22') ? err.message.split(':')[0] : err.message
  const keep = ['severity', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine'] as const
  const out: Record<string, unknown> = { type: err.constructor.name, code, message }
  for (const key of keep) if (typeof e[key] === 'string') out[key] = e[key]
  return out
}

export function serializeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return err
  if (!chainHasDatabaseError(err)) return pino.stdSerializers.err(err)
  const type = err.constructor.name
  if (isDatabaseError(err)) return { ...databaseError(err), stack: `${type}\n${frames(err)}` }
  if (isQueryError(err)) {
    const message = `Failed query: ${err.query}`
    return {
      type,
      message,
      query: err.query,
      params: `${err.params.length} parameter(s), not logged`,
      stack: `${type}: ${message}\n${frames(err)}`,
      ...(err.cause !== undefined && depth < 8 ? { cause: serializeError(err.cause, depth + 1) } : {}),
    }
  }
  // Any other error wrapping a query error: its own message, then the cause told safely.
  return {
    type,
    message: err.message,
    stack: err.stack,
    ...(depth < 8 ? { cause: serializeError(err.cause, depth + 1) } : {}),
  }
}

/** The most log kept in memory while its reader does not read; lines past it are dropped. */
export const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024

/** How long a line may wait in the buffer before it is written. */
export const LOG_FLUSH_MS = 1000

/**
 * What the flush below reads of sonic-boom: what it holds unwritten, and whether it is writing.
 * Two of its own fields, with no public reader; logger.test.ts fails if an upgrade renames them.
 */
interface Buffered {
  _len: number
  _writing: boolean
  destroyed: boolean
  flush(): void
  write(data: string): boolean
}

/**
 * Standard output for the server's log, written in blocks of 4 KB or at least once a second
 * rather than one write per line: two lines per chat send (the request, the reply's end) were a
 * write each. Flushed on exit; a kill -9 can lose up to a second of log. A reader that
 * stops reading (a stuck log shipper, a paused pager) costs at most LOG_BUFFER_MAX_BYTES of
 * memory: the server keeps serving and drops the lines it cannot keep.
 * The flush a second after a line is this timer's, armed by the line, not sonic-boom's
 * `periodicFlush`: that one runs every second and writes even when nothing is buffered (an empty
 * write on a thread of libuv's pool, whose answer wakes the main thread again), so an idle
 * server woke up to three times a second to log nothing.
 */
export function serverLogDestination(fd = 1): DestinationStream {
  const destination = pino.destination({
    dest: fd,
    sync: false,
    minLength: 4096,
    maxLength: LOG_BUFFER_MAX_BYTES,
  })
  const buffered = destination as unknown as Buffered
  let timer: ReturnType<typeof setTimeout> | undefined
  const arm = () => {
    timer = setTimeout(flushBuffered, LOG_FLUSH_MS)
    timer.unref()
  }
  function flushBuffered() {
    timer = undefined
    if (buffered._len === 0 || buffered.destroyed) return
    // A write still under way (a slow reader): what follows it is flushed a second later.
    if (buffered._writing) return arm()
    buffered.flush()
  }
  const write = buffered.write.bind(destination)
  buffered.write = (data) => {
    const accepted = write(data)
    if (!timer) arm()
    return accepted
  }
  destination.once('close', () => clearTimeout(timer))
  return destination
}

export function createLogger(options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const opts: LoggerOptions = { ...options, serializers: { ...options.serializers, err: serializeError } }
  return destination ? pino(opts, destination) : pino(opts)
}
