// Runs parse-worker.mjs on an import file with a time limit; the main thread only receives
// threads, already cut into exchanges, and validates each before anything is stored.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { z } from 'zod'
import {
  INSTRUCTION_MAX_CHARS,
  PROJECT_INSTRUCTIONS_MAX_CHARS,
  PROJECT_NAME_MAX_CHARS,
} from '#contract/assistant.ts'
import { chatModelSchema } from '#contract/config.ts'
import { co2ImpactSchema } from '#contract/impact.ts'
import { IMPORT_LIMITS } from '#contract/import.ts'
import { messageCo2ImpactSchema, messageOriginSchema, messageStatusSchema } from '#contract/messages.ts'
import { sourceSchema, toolStepSchema } from '#contract/tools.ts'
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

/**
 * PostgreSQL text and jsonb cannot hold U+0000, so a NUL failed the thread's insert (a 500 that
 * retries never got past). It is removed rather than refused, unlike in a send
 * (contract/text.ts): a person cannot edit an export, a NUL is invisible and means nothing in
 * text (ChatGPT keeps the odd one from a tool's binary output), and refusing would drop the
 * whole conversation for it.
 */
function withoutNuls(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replaceAll('\u0000', '') : value
  if (Array.isArray(value)) return value.map(withoutNuls)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNuls(v)]))
  return value
}

/** A count or duration stored in an int4 column: a larger one failed the insert. */
const int4 = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1)

// Dates from 1970 (the epoch, what a ChatGPT message without a time gets) to year 9999: the range
// that PostgreSQL stores and JavaScript reads back as the same instant. Year 0 failed the insert
// (a 500); older years come back as text a Date misreads ('0001-01-01 00:00:00+00' reads as 2001)
// or, before standard time, with offsets in seconds it cannot read at all.
const FIRST_DATE = Date.UTC(1970, 0, 1)
const LAST_DATE = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
const iso = z.iso.datetime({ offset: true }).refine(
  (s) => {
    const at = Date.parse(s)
    return at >= FIRST_DATE && at <= LAST_DATE
  },
  { error: 'a date before 1970 or after 9999' },
)

/**
 * A reply's impact as messages.co2_impact holds it (what Loris writes, or the midpoints alone of
 * older rows, as the message JSON reads them): anything else is imported as no estimate, so the
 * sums over it (metrics) and the reply's footer never meet a value they cannot read.
 */
const importedCo2 = z.union([co2ImpactSchema, messageCo2ImpactSchema]).nullable().catch(null)

/**
 * A message's text or reply: at most IMPORT_LIMITS.maxMessageChars, as a send's text is. One row
 * is written in one statement (its search vector with it), so a longer one would hold the
 * database for everyone while it is written; its conversation is skipped, with the reason.
 */
const importedText = z.string().refine((s) => s.length <= IMPORT_LIMITS.maxMessageChars, {
  error: `a message longer than ${IMPORT_LIMITS.maxMessageChars.toLocaleString('en-US')} characters`,
})

/** A string of at most `max` characters; a longer one skips its thread with `what` as the reason. */
const textUpTo = (max: number, what: string) =>
  z.string().refine((s) => s.length <= max, {
    error: `${what} longer than ${max.toLocaleString('en-US')} characters`,
  })

/** At most `max` items; more skips the thread with the reason. */
const listUpTo = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z
    .array(item)
    .refine((a) => a.length <= max, { error: `a reply with more than ${max} ${what}` })
    .default([])

/** A page the reply drew on (contract/tools.ts sourceSchema), its texts bounded. */
const importedSource = sourceSchema.extend({
  url: textUpTo(2_048, 'a source address'),
  title: textUpTo(500, 'a source title'),
  snippet: textUpTo(2_000, 'a source snippet').optional(),
})

/** The most characters a tool step's arguments take as JSON. */
const TOOL_ARGS_CHARS = 20_000

/**
 * A tool call the reply made (contract/tools.ts toolStepSchema), bounded. A step that was still
 * running or waiting for approval when exported can no longer finish: it comes back failed, or
 * refused, never as a step that waits for a click (its approval, naming the exported message,
 * is left out).
 */
const importedToolStep = toolStepSchema.omit({ approval: true }).extend({
  id: textUpTo(200, 'a tool step id'),
  name: textUpTo(200, 'a tool name'),
  args: z.unknown().refine((a) => (JSON.stringify(a ?? null)?.length ?? 0) <= TOOL_ARGS_CHARS, {
    error: `tool arguments longer than ${TOOL_ARGS_CHARS.toLocaleString('en-US')} characters`,
  }),
  result: textUpTo(10_000, 'a tool result').optional(),
  status: toolStepSchema.shape.status.transform((s) =>
    s === 'running' ? 'failed' : s === 'awaiting-approval' ? 'refused' : s,
  ),
})

const messageShape = z.object({
  /**
   * A Loris export's versions (decision 012): the exported id, the exported id it follows and
   * how it came to be. Absent (ChatGPT, older Loris exports): the messages are one chain.
   */
  key: z.string().max(100).nullish(),
  parentKey: z.string().max(100).nullish(),
  origin: messageOriginSchema.nullish(),
  selectedAt: iso.nullish(),
  content: importedText,
  response: importedText,
  chatModel: chatModelSchema,
  provider: z.string().nullable(),
  modelId: z.string().nullable(),
  status: messageStatusSchema,
  errorMessage: z.string().nullable(),
  inputTokens: int4.nullable(),
  outputTokens: int4.nullable(),
  latencyMs: int4.nullable(),
  co2Impact: importedCo2,
  createdAt: iso,
  completedAt: iso.nullable(),
  attachment: z
    .object({
      fileName: z.string().max(300),
      mimeType: z.string().max(200),
      kind: z.enum(['image', 'document', 'audio']),
      size: int4,
      path: z.string().max(500).nullable(),
    })
    .nullable(),
  sources: listUpTo(importedSource, IMPORT_LIMITS.maxSourcesPerMessage, 'sources'),
  toolSteps: listUpTo(importedToolStep, IMPORT_LIMITS.maxToolStepsPerMessage, 'tool steps'),
})

/** A project's name as a project keeps it (contract/assistant.ts projectBody). */
const projectName = z
  .string()
  .trim()
  .refine((s) => s.length > 0, { error: 'a project without a name' })
  .refine((s) => s.length <= PROJECT_NAME_MAX_CHARS, {
    error: `a project name longer than ${PROJECT_NAME_MAX_CHARS} characters`,
  })

const threadShape = z.object({
  source: z.string().min(1).max(300),
  title: z.string().trim().min(1).max(300),
  chatModel: chatModelSchema,
  isFavorite: z.boolean(),
  isDefault: z.boolean(),
  createdAt: iso,
  lastMessageAt: iso,
  /** Left out of the thread: non-text parts, other branches, entries not in the export's form. */
  notes: z.object({ droppedParts: int4, otherBranches: int4, unreadable: int4 }),
  /** The project it belongs to: the exported project's id (assistant.json) and its name. */
  project: z
    .object({ key: z.string().max(100).nullable(), name: projectName })
    .nullable()
    .default(null),
  messages: z.array(messageShape),
})
export const importedThreadSchema = z.preprocess(withoutNuls, threadShape)
export type ImportedThread = z.infer<typeof importedThreadSchema>

/** A thread but its messages, which are checked a slice at a time (validated). */
const threadHead = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) ? withoutNuls({ ...v, messages: [] }) : v),
  threadShape,
)
const messageSlice = z.array(z.preprocess(withoutNuls, messageShape))
/** Messages checked between two turns of the event loop: about 20 ms of work. */
const MESSAGES_PER_TURN = 250

export type SkippedEntry = { title: string; reason: string }

const importedProject = z.object({
  id: z.string().max(100),
  name: projectName,
  instructions: textUpTo(PROJECT_INSTRUCTIONS_MAX_CHARS, 'project instructions').default(''),
  files: z
    .array(z.object({ name: textUpTo(255, 'a file name'), path: z.string().max(500).nullable() }))
    .default([]),
})
export type ImportedProject = z.infer<typeof importedProject>

const importedInstructions = z.object({
  aboutMe: textUpTo(INSTRUCTION_MAX_CHARS, 'an instruction'),
  howToRespond: textUpTo(INSTRUCTION_MAX_CHARS, 'an instruction'),
  enabled: z.boolean(),
})

/** assistant.json of a Loris data export, validated: what can be restored, and what cannot. */
export interface ImportedAssistant {
  instructions: z.infer<typeof importedInstructions> | null
  projects: ImportedProject[]
  /** Said in the report: a project or the instructions left out, and why. */
  notes: string[]
}

/**
 * The instructions and projects the worker read, each checked on its own: one that is not in
 * the export's form is left out with the reason, the others are restored.
 */
export function validatedAssistant(
  raw: unknown,
  limits: Pick<ImportLimits, 'maxProjects'>,
): ImportedAssistant {
  const doc = (raw && typeof raw === 'object' ? raw : {}) as { instructions?: unknown; projects?: unknown }
  const notes: string[] = []
  let instructions: ImportedAssistant['instructions'] = null
  if (doc.instructions != null) {
    const parsed = z.preprocess(withoutNuls, importedInstructions).safeParse(doc.instructions)
    if (parsed.success) instructions = parsed.data
    else notes.push(`Your custom instructions were left out: ${reasonOf(parsed.error)}`)
  }
  const list = Array.isArray(doc.projects) ? doc.projects : []
  if (list.length > limits.maxProjects)
    notes.push(
      `Only the first ${limits.maxProjects} projects were restored: one import restores at most that many`,
    )
  const projects: ImportedProject[] = []
  for (const item of list.slice(0, limits.maxProjects)) {
    const parsed = z.preprocess(withoutNuls, importedProject).safeParse(item)
    if (parsed.success) projects.push(parsed.data)
    else {
      const name = (item as { name?: unknown })?.name
      const title =
        (typeof name === 'string' ? name.replaceAll('\u0000', '').trim().slice(0, 100) : '') || '(unnamed)'
      notes.push(`Project "${title}" was left out: ${reasonOf(parsed.error)}`)
    }
  }
  return { instructions, projects, notes }
}

/** What the worker read, a batch at a time. */
export interface ImportBatch {
  threads: ImportedThread[]
  skipped: SkippedEntry[]
  /** A Loris data export's instructions and projects, read before its first thread. */
  assistant: ImportedAssistant | null
}

/** The files of a Loris data export an import stored, read back by their path in the zip. */
export interface ImportedFiles {
  read(path: string): Promise<Uint8Array | null>
}

/**
 * Where what the worker reads goes, one piece at a time: the worker waits until `file` or `batch`
 * has settled before it reads on. The files named by a Loris export's threads come first, each
 * by its path in the zip (files/...).
 */
export interface ImportSink {
  /** `bytes` are the file's only until the promise settles: the next file is read into them. */
  file(path: string, bytes: Uint8Array): Promise<void>
  /** A named file left out because the files before it used up limits.maxFilesBytes. */
  fileOverBudget(path: string): void
  batch(batch: ImportBatch): Promise<void>
}

export interface ParsedImport {
  kind: 'chatgpt' | 'loris'
  threads: ImportedThread[]
  skipped: SkippedEntry[]
  files: Map<string, Uint8Array>
  filesOverBudget: Set<string>
  assistant: ImportedAssistant | null
}

type WorkerMessage =
  | { type: 'batch'; threads: unknown[]; skipped: SkippedEntry[] }
  | { type: 'messages'; messages: unknown[] }
  | { type: 'file'; path: string; size: number }
  | { type: 'fileLeftOut'; path: string }
  | { type: 'assistant'; assistant: unknown }
  | { type: 'done'; kind: 'chatgpt' | 'loris' }
  | { type: 'error'; message: string }

export type ImportLimits = { [K in keyof typeof IMPORT_LIMITS]: number }

/**
 * The worker's heap: one conversation or thread at a time (a Loris thread is at most
 * maxThreadBytes of JSON) and the batch being posted. A file that needs more is refused as too
 * large, and the memory an import holds stays bounded whatever the file (decision 046).
 */
const WORKER_HEAP_MB = 192

/** What the worker puts in place of a long thread's messages, posted before it in slices. */
const MESSAGES_POSTED = 'posted before'

/** What was wrong, from the first issue zod found (`offset`: of its messages' slice). */
function reasonOf(error: z.ZodError, offset?: number): string {
  const issue = error.issues[0]
  const path =
    offset !== undefined
      ? ['messages', Number(issue?.path[0]) + offset, ...(issue?.path.slice(1) ?? [])]
      : issue?.path
  const where = path?.join('.') || 'shape'
  // Our own refinements say what was wrong in words; zod's own messages are technical.
  return issue?.code === 'custom' ? `${issue.message} (${where})` : `unexpected content (${where})`
}

/** Why a thread was skipped. */
function skippedFor(thread: unknown, error: z.ZodError, offset?: number): SkippedEntry {
  const title = (thread as { title?: unknown })?.title
  return {
    title: typeof title === 'string' ? title.replaceAll('\u0000', '') : '(unknown)',
    reason: reasonOf(error, offset),
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * A thread as the worker read it, validated: stored as is, or skipped with a reason. A long one
 * is checked a slice of messages at a time, so the main thread is never held for all of them.
 */
async function validated(thread: unknown): Promise<ImportedThread | SkippedEntry> {
  const head = threadHead.safeParse(thread)
  if (!head.success) return skippedFor(thread, head.error)
  const raw = (thread as { messages?: unknown }).messages
  if (!Array.isArray(raw))
    return skippedFor(thread, threadShape.safeParse({ ...head.data, messages: raw }).error as z.ZodError)
  const messages: ImportedThread['messages'] = []
  for (let at = 0; at < raw.length; at += MESSAGES_PER_TURN) {
    if (at > 0) await nextTurn()
    const slice = messageSlice.safeParse(raw.slice(at, at + MESSAGES_PER_TURN))
    if (!slice.success) return skippedFor(thread, slice.error, at)
    messages.push(...slice.data)
  }
  return { ...head.data, messages }
}

/**
 * Reads an import file in parse-worker.mjs and hands what it read to `sink`, one file or batch at
 * a time: the worker waits until the sink has taken each in before it reads on, so the main
 * thread holds one file or one batch, and the time limit counts only the worker's own time.
 * `transfer` gives the worker `bytes` itself (the caller no longer uses them) instead of a copy.
 */
export function readImportFile(
  bytes: Uint8Array,
  sink: ImportSink,
  { limits = IMPORT_LIMITS, transfer = false }: { limits?: ImportLimits; transfer?: boolean } = {},
): Promise<{ kind: 'chatgpt' | 'loris' }> {
  const own = transfer ? bytes : bytes.slice()
  const control = new SharedArrayBuffer(8)
  const acks = new Int32Array(control)
  // One file at a time is unpacked here by the worker and copied out to be written, each into the
  // same memory (its pages taken only as far as the largest file reaches): however many files an
  // export carries, the import holds two file's worth (decision 046).
  const fileArea = new SharedArrayBuffer(limits.maxFileBytesInZip)
  let held: Uint8Array | undefined
  const worker = new Worker(findWorker(), {
    workerData: {
      bytes: own.buffer,
      byteOffset: own.byteOffset,
      byteLength: own.byteLength,
      limits,
      control,
      fileArea,
    },
    transferList: [own.buffer as ArrayBuffer],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  })
  let assistant: ImportedAssistant | null = null
  let heldMessages: unknown[] = []
  return new Promise((resolve, reject) => {
    let settled = false
    let remaining = limits.timeoutMs
    let startedAt = performance.now()
    let timer: NodeJS.Timeout | undefined
    const finish = (fn: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      // A worker waiting for its batch to be taken in stops waiting.
      Atomics.store(acks, 1, 1)
      Atomics.notify(acks, 0)
      // Settled once the worker has stopped: the memory it held (the file itself) is given back
      // by the time the import answers.
      worker.terminate().then(fn, fn)
    }
    const run = () => {
      startedAt = performance.now()
      timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new AppError(
                'unprocessable:import_timeout',
                `Reading the file took longer than ${limits.timeoutMs / 1000} seconds; try a smaller export`,
              ),
            ),
          ),
        Math.max(0, remaining),
      )
    }
    const pause = () => {
      clearTimeout(timer)
      remaining -= performance.now() - startedAt
    }
    run()
    /** Takes in what the worker posted and waits for (its time paused meanwhile), then lets it on. */
    const takeIn = (take: () => Promise<void>) => {
      pause()
      take().then(
        () => {
          if (settled) return
          Atomics.add(acks, 0, 1)
          Atomics.notify(acks, 0)
          run()
        },
        (err) => finish(() => reject(err)),
      )
    }
    worker.on('message', (m: WorkerMessage) => {
      if (settled) return
      if (m.type === 'batch') {
        // A long thread's messages came before it, in slices (parse-worker.mjs emitThread).
        const posted = heldMessages
        heldMessages = []
        takeIn(async () => {
          const threads: ImportedThread[] = []
          const skipped = [...m.skipped]
          for (const read of m.threads) {
            const thread =
              (read as { messages?: unknown })?.messages === MESSAGES_POSTED
                ? { ...(read as object), messages: posted }
                : read
            const v = await validated(thread)
            if ('reason' in v) skipped.push(v)
            else threads.push(v)
          }
          await sink.batch({ threads, skipped, assistant })
        })
      } else if (m.type === 'messages') heldMessages.push(...m.messages)
      else if (m.type === 'file')
        takeIn(() => {
          // A copy the process owns: a library that writes it out may refuse shared memory.
          held ??= new Uint8Array(limits.maxFileBytesInZip)
          held.set(new Uint8Array(fileArea, 0, m.size))
          return sink.file(m.path, held.subarray(0, m.size))
        })
      else if (m.type === 'fileLeftOut') sink.fileOverBudget(m.path)
      else if (m.type === 'assistant') assistant = validatedAssistant(m.assistant, limits)
      else if (m.type === 'done') finish(() => resolve({ kind: m.kind }))
      else finish(() => reject(new AppError('unprocessable:import', m.message)))
    })
    // A message the main thread could not take in (the worker bounds what it posts, so this is
    // a value it did not foresee): the file fails with a reason rather than losing its threads.
    worker.on('messageerror', () =>
      finish(() =>
        reject(
          new AppError('unprocessable:import', 'Part of the file could not be read, so nothing was imported'),
        ),
      ),
    )
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

/** The whole file read at once (tests): every file and batch collected. */
export async function parseImportFile(
  bytes: Uint8Array,
  limits: ImportLimits = IMPORT_LIMITS,
): Promise<ParsedImport> {
  const parsed: ParsedImport = {
    kind: 'chatgpt',
    threads: [],
    skipped: [],
    files: new Map(),
    filesOverBudget: new Set(),
    assistant: null,
  }
  const { kind } = await readImportFile(
    bytes,
    {
      file: async (path, fileBytes) => void parsed.files.set(path, fileBytes.slice()),
      fileOverBudget: (path) => void parsed.filesOverBudget.add(path),
      batch: async (batch) => {
        parsed.threads.push(...batch.threads)
        parsed.skipped.push(...batch.skipped)
        parsed.assistant = batch.assistant
      },
    },
    { limits },
  )
  return { ...parsed, kind }
}
