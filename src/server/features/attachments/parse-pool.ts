// A small, bounded pool of worker threads that read uploaded files (parse-worker.ts), so a crafted
// file can cost a worker its time or memory but never stalls the server (decision 008).
// Each file gets a wall-clock limit and the worker a heap cap; a worker past either is terminated
// and replaced. When every worker is busy and the queue is full, the send is refused with 503.
import type { Worker } from 'node:worker_threads'
import { PARSE_LIMITS } from '#contract/attachments.ts'
import { type ErrorCode, fileLimitErrors } from '#contract/errors.ts'
import { AppError } from '#server/lib/app-error.ts'
import { startWorkerBeside } from '#server/lib/worker-thread.ts'
import type { Inspected } from './inspect.ts'
import type { ParseRequest, ParseResponse } from './parse-worker.ts'
import type { ReadablePage } from './readable-page.ts'

export interface ParsePoolOptions {
  /** Workers reading at once. */
  size?: number
  /** Files waiting for a worker; one more is refused with 503. */
  maxQueue?: number
  timeLimitMs?: number
  memoryMb?: number
  /** A worker with nothing to do for this long is ended (it holds the parsers' memory). */
  idleMs?: number
}

function startWorker(memoryMb: number): Worker {
  return startWorkerBeside(import.meta.url, 'parse-worker', {
    maxOldGenerationSizeMb: memoryMb,
    maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(memoryMb / 8))),
    stackSizeMb: 4,
  })
}

interface Job {
  bytes: Uint8Array
  fileName: string
  pageUrl?: string
  textBudget?: number
  resolve(value: Inspected | ReadablePage): void
  reject(err: unknown): void
}

interface Slot {
  worker: Worker
  ready: boolean
  job: Job | null
  timer: NodeJS.Timeout | null
  idle: NodeJS.Timeout | null
}

const limitError = (code: keyof typeof fileLimitErrors) => new AppError(code, fileLimitErrors[code])
const unreadable = () =>
  new AppError(
    'unprocessable:attachment',
    'This file could not be read. It may be damaged or password-protected.',
  )

export class ParsePool {
  readonly size: number
  readonly maxQueue: number
  readonly timeLimitMs: number
  readonly memoryMb: number
  readonly idleMs: number
  private slots = new Set<Slot>()
  private queue: Job[] = []
  private nextId = 1

  constructor(opts: ParsePoolOptions = {}) {
    this.size = opts.size ?? 2
    this.maxQueue = opts.maxQueue ?? 8
    this.timeLimitMs = opts.timeLimitMs ?? PARSE_LIMITS.seconds * 1000
    this.memoryMb = opts.memoryMb ?? PARSE_LIMITS.memoryMb
    this.idleMs = opts.idleMs ?? 60_000
  }

  /** Workers alive now (for tests and metrics). */
  get workers(): number {
    return this.slots.size
  }

  /** Files being read now, and waiting for a worker (metrics). */
  get reading(): number {
    let n = 0
    for (const slot of this.slots) if (slot.job) n++
    return n
  }

  get queued(): number {
    return this.queue.length
  }

  /**
   * Reads one file in a worker: its kind, and the text a model reads when it has any (cut at
   * `textBudget` characters, a message's attachment budget unless a caller keeps more).
   */
  inspect(bytes: Uint8Array, fileName: string, textBudget?: number): Promise<Inspected> {
    return this.run({ bytes, fileName, textBudget }) as Promise<Inspected>
  }

  /** Reads a fetched web page in a worker: its title and readable text (readable-page.ts). */
  readPage(bytes: Uint8Array, pageUrl: string): Promise<ReadablePage> {
    return this.run({ bytes, fileName: '', pageUrl }) as Promise<ReadablePage>
  }

  private run(
    work: Pick<Job, 'bytes' | 'fileName' | 'pageUrl' | 'textBudget'>,
  ): Promise<Inspected | ReadablePage> {
    if (this.queue.length >= this.maxQueue)
      return Promise.reject(
        new AppError(
          'service_unavailable:file_reader_busy',
          fileLimitErrors['service_unavailable:file_reader_busy'],
          {
            headers: { 'retry-after': '5' },
          },
        ),
      )
    return new Promise<Inspected | ReadablePage>((resolve, reject) => {
      this.queue.push({ ...work, resolve, reject })
      this.pump()
    })
  }

  /** Ends every worker; queued and running files are refused. */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) job.reject(limitError('service_unavailable:file_reader_busy'))
    await Promise.all([...this.slots].map((slot) => this.end(slot, unreadable())))
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return
      if (slot.ready && !slot.job) this.dispatch(slot, this.queue.shift() as Job)
    }
    const starting = [...this.slots].filter((s) => !s.ready).length
    if (this.queue.length > starting && this.slots.size < this.size) this.spawn()
  }

  private spawn(): void {
    const worker = startWorker(this.memoryMb)
    const slot: Slot = { worker, ready: false, job: null, timer: null, idle: null }
    this.slots.add(slot)
    // Idle workers never keep the process alive (a busy one is ref'd while it reads).
    worker.unref()
    worker.on('message', (msg: ParseResponse | { ready: true }) => {
      if ('ready' in msg) {
        slot.ready = true
        // Idle until pump hands it a file (dispatch clears the idle timer).
        this.scheduleIdle(slot)
        this.pump()
        return
      }
      const job = slot.job
      if (!job) return
      this.release(slot)
      if (msg.ok) job.resolve(msg.result)
      else job.reject(new AppError(msg.error.code as ErrorCode, msg.error.message))
      this.pump()
    })
    worker.on('error', (err: NodeJS.ErrnoException) => {
      const memory = err.code === 'ERR_WORKER_OUT_OF_MEMORY'
      void this.end(slot, memory ? limitError('unprocessable:file_memory_limit') : unreadable())
    })
    worker.on('exit', () => {
      if (this.slots.has(slot)) void this.end(slot, unreadable())
    })
  }

  private dispatch(slot: Slot, job: Job): void {
    if (slot.idle) clearTimeout(slot.idle)
    slot.idle = null
    slot.job = job
    slot.worker.ref()
    slot.timer = setTimeout(
      () => void this.end(slot, limitError('unprocessable:file_time_limit')),
      this.timeLimitMs,
    )
    const request: ParseRequest = {
      id: this.nextId++,
      bytes: job.bytes,
      fileName: job.fileName,
      pageUrl: job.pageUrl,
      textBudget: job.textBudget,
    }
    slot.worker.postMessage(request)
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer)
    slot.timer = null
    slot.job = null
    slot.worker.unref()
    this.scheduleIdle(slot)
  }

  private scheduleIdle(slot: Slot): void {
    if (slot.idle) clearTimeout(slot.idle)
    slot.idle = setTimeout(() => void this.end(slot, unreadable()), this.idleMs)
    slot.idle.unref()
  }

  /** Terminates a worker; its file (if any) is refused with `reason`; the queue moves on. */
  private async end(slot: Slot, reason: AppError): Promise<void> {
    if (!this.slots.delete(slot)) return
    if (slot.timer) clearTimeout(slot.timer)
    if (slot.idle) clearTimeout(slot.idle)
    slot.job?.reject(reason)
    slot.job = null
    const stopped = slot.worker.terminate()
    // A worker that died before it was ready would die again: refuse what waits instead of looping.
    if (!slot.ready) for (const job of this.queue.splice(0)) job.reject(unreadable())
    this.pump()
    await stopped
  }
}

let shared: ParsePool | null = null

/** The process's pool if one was started (metrics read it without starting one). */
export const startedParsePool = (): ParsePool | null => shared

/** The process's pool, started on first use. */
export function sharedParsePool(): ParsePool {
  shared ??= new ParsePool()
  return shared
}
