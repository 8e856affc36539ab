import { z } from 'zod'
import { instructionsSchema } from './assistant.ts'
import { chatModelSchema } from './config.ts'
import { mediaTypeSchema, messageOriginSchema, messageStatusSchema } from './messages.ts'
import { replyFamilySchema } from './models.ts'
import { sourceSchema, toolStepSchema } from './tools.ts'

// Loris's own export format: what GET /api/export and a thread's "Export as JSON"
// write, and what POST /api/import reads back. Bump EXPORT_VERSION when a field changes meaning.
export const EXPORT_FORMAT = 'loris-export'
// 2: messages carry the versions of each turn (parentId, origin, selectedAt; decision 012).
// 3: a thread names its project; the data export zip carries assistant.json (instructions,
// projects and the text of their files).
export const EXPORT_VERSION = 3

export const exportFormatQuery = z.object({
  format: z.enum(['markdown', 'json'], { error: 'format must be markdown or json' }).default('json'),
})

export const exportedAttachmentSchema = z.object({
  fileName: z.string(),
  mimeType: z.string(),
  kind: z.enum(['image', 'document', 'audio']),
  size: z.number().int(),
  /** Where the file is in the data export zip (files/...); absent in a single thread's export. */
  path: z.string().nullable(),
})

/**
 * One exchange. Every version of every turn is listed (docs/decisions/012-message-versions.md):
 * `parentId` names the exchange it follows (null for the first turn), exchanges sharing it are the
 * versions of one turn, `version` is its place among them (1 = oldest), and the shown branch takes
 * at each turn the version with the latest `selectedAt`. Version 1 exports have none of these:
 * their messages read as one chain, oldest first.
 */
export const exportedMessageSchema = z.object({
  id: z.string(),
  version: z.number().int().default(1),
  parentId: z.string().nullable().default(null),
  /**
   * How it came to be: sent, an edit, a regenerated reply, a copy made by '@', or brought in
   * by an import (a ChatGPT or Loris import: every imported exchange but a copy).
   */
  origin: messageOriginSchema.default('sent'),
  selectedAt: z.string().nullable().default(null),
  /** On the branch the thread shows. */
  shown: z.boolean().default(true),
  content: z.string(),
  response: z.string(),
  status: messageStatusSchema,
  errorMessage: z.string().nullable(),
  chatModel: replyFamilySchema,
  provider: z.string().nullable(),
  modelId: z.string().nullable(),
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  /** Grams of CO2eq as stored (with bounds when the estimate had them). */
  co2Impact: z.unknown().nullable(),
  mediaType: mediaTypeSchema.nullable(),
  attachment: exportedAttachmentSchema.nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** The pages the reply drew on, numbered from 1, and the tools it called (decision 065). */
  sources: z.array(sourceSchema).default([]),
  toolSteps: z.array(toolStepSchema).default([]),
})
export type ExportedMessage = z.infer<typeof exportedMessageSchema>

export const exportedThreadSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.number().int(),
  exportedAt: z.string(),
  thread: z.object({
    id: z.string(),
    title: z.string(),
    chatModel: chatModelSchema,
    isFavorite: z.boolean(),
    isDefault: z.boolean(),
    createdAt: z.string(),
    lastMessageAt: z.string(),
    /** The project it belongs to (its id in this export, and its name); null when none. */
    project: z.object({ id: z.string(), name: z.string() }).nullable().default(null),
  }),
  messages: z.array(exportedMessageSchema),
})
export type ExportedThread = z.infer<typeof exportedThreadSchema>

/** The account record in a data export: no password hash, tokens or payment ids. */
export const exportedAccountSchema = z.object({
  id: z.string(),
  email: z.string(),
  signsInWithGoogle: z.boolean(),
  hasPassword: z.boolean(),
  isPremium: z.boolean(),
  subscriptionStatus: z.string().nullable(),
  subscriptionStartDate: z.string().nullable(),
  subscriptionEndDate: z.string().nullable(),
  co2Saved: z.number(),
  co2SavedMin: z.number(),
  co2SavedMax: z.number(),
  treesPlanted: z.number(),
  aiInputChars: z.number(),
  aiOutputChars: z.number(),
  aiUsageStartDate: z.string(),
  createdAt: z.string(),
})
export type ExportedAccount = z.infer<typeof exportedAccountSchema>

/** manifest.json at the root of the data export zip. */
export const exportManifestSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.number().int(),
  exportedAt: z.string(),
  threads: z.array(z.object({ json: z.string(), markdown: z.string(), title: z.string() })),
})
export type ExportManifest = z.infer<typeof exportManifestSchema>

/**
 * A project file in a data export. Loris keeps a project file as the text it read from it
 * (passages), not its bytes: `path` names that text in the zip (files/..., plain text).
 */
export const exportedProjectFileSchema = z.object({
  name: z.string(),
  mimeType: z.string(),
  chars: z.number().int(),
  path: z.string().nullable(),
})

export const exportedProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  instructions: z.string(),
  createdAt: z.string(),
  files: z.array(exportedProjectFileSchema).default([]),
})
export type ExportedProject = z.infer<typeof exportedProjectSchema>

/** assistant.json at the root of the data export zip: custom instructions and projects. */
export const exportedAssistantSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.number().int(),
  /** Null when the person never wrote any. */
  instructions: instructionsSchema.nullable(),
  projects: z.array(exportedProjectSchema),
})
export type ExportedAssistant = z.infer<typeof exportedAssistantSchema>
