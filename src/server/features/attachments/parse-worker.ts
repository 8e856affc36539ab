// The parse worker's entry (a worker thread started by parse-pool.ts). It reads one file at a time
// and answers with what inspectFile found, or the error to show. It shares no memory with the
// server: whatever a crafted file does here (prototype pollution through xlsx, CVE-2023-30533; a
// runaway parser) stays here, and the pool ends the thread when it runs out of time or memory.
import { setPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'
import { AppError } from '#server/lib/app-error.ts'
import { type Inspected, inspectFile } from './inspect.ts'
import { type ReadablePage, readablePage } from './readable-page.ts'

/** A file to inspect, or a fetched web page to read (its address names it, `fileName` is unused). */
export interface ParseRequest {
  id: number
  bytes: Uint8Array
  fileName: string
  pageUrl?: string
  /** Characters of text kept (inspectFile's default unless given). */
  textBudget?: number
}

export type ParseResponse =
  | { id: number; ok: true; result: Inspected | ReadablePage }
  | { id: number; ok: false; error: { code: string; message: string } }

// On Linux a thread has its own nice value: this worker yields the CPU to the server's main thread
// (answering requests) and to other processes, so reading a heavy file slows only itself.
try {
  setPriority(10)
} catch {
  // Not permitted or not supported here: the worker runs at normal priority.
}

const port = parentPort
if (!port) throw new Error('parse-worker.ts runs as a worker thread (see parse-pool.ts)')

port.on('message', async ({ id, bytes, fileName, pageUrl, textBudget }: ParseRequest) => {
  let answer: ParseResponse
  try {
    const result =
      pageUrl !== undefined ? readablePage(bytes, pageUrl) : await inspectFile(bytes, fileName, textBudget)
    answer = { id, ok: true, result }
  } catch (err) {
    answer =
      err instanceof AppError
        ? { id, ok: false, error: { code: err.code, message: err.message } }
        : {
            id,
            ok: false,
            error: {
              code: 'unprocessable:attachment',
              message: 'This file could not be read. It may be damaged or password-protected.',
            },
          }
  }
  port.postMessage(answer)
})
port.postMessage({ ready: true })
