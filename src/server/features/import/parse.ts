// Runs parse-worker.mjs on an import file with a time limit; the main thread only receives
// threads, already cut into exchanges, and validates each before anything is stored.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { z } from 'zod'
import { chatModelSchema } from '#contract/config.ts'
import { IMPORT_LIMITS } from '#contract/import.ts'
import { messageStatusSchema } from '#contract/messages.ts'
import { AppError } from '#server/lib/app-error.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
// Beside this file in the source tree; the bundled server finds it by walking up to the project
// root, as it does for the migrations.
function findWorker(): string {
  const local = path.join(here, 'parse-worker.mjs')
  if (existsSync(local)) return local
  for (let dir = here; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'src/server/features/import/parse-worker.mjs')
    if (existsSync(candidate)) return candidate
  }
  throw new Error('The import parser (parse-worker.mjs) was not found')
}

const iso = z.iso.datetime({ offset: true })
export const importedThreadSchema = z.object({
  source: z.string().min(1).max(300),
  title: z.string().trim().min(1).max(300),
  chatModel: chatModelSchema,
  isFavorite: z.boolean(),
  isDefault: z.boolean(),
  createdAt: iso,
  lastMessageAt: iso,
  notes: z.object({ droppedParts: z.number().int(), otherBranches: z.number().int() }),
  messages: z.array(
    z.object({
      /**
       * A Loris export's versions (decision 012): the exported id, the exported id it follows and
       * how it came to be. Absent (ChatGPT, older Loris exports): the messages are one chain.
       */
      key: z.string().max(100).nullish(),
      parentKey: z.string().max(100).nullish(),
      origin: z.enum(['sent', 'edit', 'regenerate', 'copy']).nullish(),
      selectedAt: iso.nullish(),
      content: z.string(),
      response: z.string(),
      chatModel: chatModelSchema,
      provider: z.string().nullable(),
      modelId: z.string().nullable(),
      status: messageStatusSchema,
      errorMessage: z.string().nullable(),
      inputTokens: z.number().int().nullable(),
      outputTokens: z.number().int().nullable(),
      latencyMs: z.number().int().nullable(),
      co2Impact: z.unknown().nullable(),
      createdAt: iso,
      completedAt: iso.nullable(),
      attachment: z
        .object({
          fileName: z.string().max(300),
          mimeType: z.string().max(200),
          kind: z.enum(['image', 'document', 'audio']),
          size: z.number().int(),
          path: z.string().max(500).nullable(),
        })
        .nullable(),
    }),
  ),
})
export type ImportedThread = z.infer<typeof importedThreadSchema>

export interface ParsedImport {
  kind: 'chatgpt' | 'loris'
  threads: ImportedThread[]
  skipped: Array<{ title: string; reason: string }>
  /** Files of a Loris data export, by their path in the zip (files/...). */
  files: Map<string, Uint8Array>
}

type WorkerMessage =
  | { type: 'thread'; thread: unknown }
  | { type: 'skipped'; title: string; reason: string }
  | { type: 'file'; path: string; bytes: Uint8Array }
  | { type: 'done'; kind: 'chatgpt' | 'loris' }
  | { type: 'error'; message: string }

export type ImportLimits = { [K in keyof typeof IMPORT_LIMITS]: number }

export function parseImportFile(
  bytes: Uint8Array,
  limits: ImportLimits = IMPORT_LIMITS,
): Promise<ParsedImport> {
  // The worker gets its own copy of the bytes (transferred, not cloned).
  const buffer = bytes.slice().buffer
  const worker = new Worker(findWorker(), {
    workerData: { bytes: buffer, limits },
    transferList: [buffer],
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  })
  const threads: ImportedThread[] = []
  const skipped: ParsedImport['skipped'] = []
  const files: ParsedImport['files'] = new Map()
  return new Promise<ParsedImport>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate()
      reject(
        new AppError(
          'unprocessable:import_timeout',
          `Reading the file took longer than ${limits.timeoutMs / 1000} seconds; try a smaller export`,
        ),
      )
    }, limits.timeoutMs)
    const finish = (fn: () => void) => {
      clearTimeout(timer)
      void worker.terminate()
      fn()
    }
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'thread') {
        const parsed = importedThreadSchema.safeParse(m.thread)
        if (parsed.success) threads.push(parsed.data)
        else {
          const title = (m.thread as { title?: unknown })?.title
          skipped.push({
            title: typeof title === 'string' ? title : '(unknown)',
            reason: `unexpected content (${parsed.error.issues[0]?.path.join('.') || 'shape'})`,
          })
        }
      } else if (m.type === 'skipped') skipped.push({ title: m.title, reason: m.reason })
      else if (m.type === 'file') files.set(m.path, m.bytes)
      else if (m.type === 'done') finish(() => resolve({ kind: m.kind, threads, skipped, files }))
      else finish(() => reject(new AppError('unprocessable:import', m.message)))
    })
    worker.on('error', (err) =>
      finish(() =>
        reject(
          err.message.includes('memory')
            ? new AppError('payload_too_large:import', 'The file is too large to import')
            : err,
        ),
      ),
    )
    worker.on('exit', () =>
      finish(() => reject(new AppError('unprocessable:import', 'The file could not be read'))),
    )
  })
}
