import { z } from 'zod'

export const MB = 1024 * 1024

/** Limits of POST /api/import: the file, what it unpacks to, and how long parsing may take. */
export const IMPORT_LIMITS = {
  maxFileBytes: 100 * MB,
  maxUnzippedBytes: 500 * MB,
  maxThreadBytes: 50 * MB,
  /** A file inside a Loris export: the largest upload there is. */
  maxFileBytesInZip: 25 * MB,
  /**
   * All the files one import brings back (written to storage one at a time as they are read), so
   * one import cannot fill the storage with what no person uploaded. An export's files are mostly
   * pictures and PDFs, which a zip does not shrink, so a real export (at most maxFileBytes) carries
   * about this much; the files past it are left out, said in a note.
   */
  maxFilesBytes: 100 * MB,
  maxThreads: 10_000,
  maxMessagesPerThread: 10_000,
  /** A message's text, and its reply: each at most what one send may hold. */
  maxMessageChars: 100_000,
  /** The pages a reply drew on and the tool calls it made: a few each in a reply Loris wrote. */
  maxSourcesPerMessage: 50,
  maxToolStepsPerMessage: 20,
  /** Projects one import restores (with their instructions and the files the zip carries). */
  maxProjects: 500,
  timeoutMs: 60_000,
  /** The skipped conversations a report names; the others are counted (skippedCount). */
  maxListedSkipped: 100,
  /**
   * The upload itself: read before the import waits for its turn, at least this fast (after the
   * first seconds) and within this time, so a connection that trickles cannot keep it waiting.
   */
  uploadGraceMs: 10_000,
  uploadMinBytesPerSecond: 64 * 1024,
  /** Under Node's own limit on receiving one request (server.requestTimeout, 5 minutes). */
  uploadDeadlineMs: 4 * 60_000,
} as const

/** What POST /api/import answers: what was created, and what was left out and why. */
export const importReportSchema = z.object({
  source: z.enum(['chatgpt', 'loris']),
  threadsImported: z.number().int(),
  messagesImported: z.number().int(),
  /** Projects a Loris data export brought back that the person did not have (by name). */
  projectsImported: z.number().int(),
  /** The first IMPORT_LIMITS.maxListedSkipped conversations left out, and why. */
  skipped: z.array(z.object({ title: z.string(), reason: z.string() })),
  /** How many were left out in all (skipped lists the first of them). */
  skippedCount: z.number().int(),
  /**
   * Said in plain words: what came back beside the threads (projects, instructions) and what was
   * kept out (pictures, other branches, files).
   */
  notes: z.array(z.string()),
})
export type ImportReport = z.infer<typeof importReportSchema>
