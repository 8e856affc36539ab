// A thread as Loris's JSON export format and as Markdown a person can read anywhere.
import type { Instructions } from '#contract/assistant.ts'
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportedAccount,
  type ExportedAssistant,
  type ExportedMessage,
  type ExportedThread,
} from '#contract/export.ts'
import { activeBranch, childrenByParent } from '#server/lib/branch.ts'
import type { UserRow } from '#server/lib/context.ts'
import { sourcesOf, toolStepsOf } from '#server/lib/stored-message.ts'
import type { ExportMessageRow, ExportThreadRow, ProjectFileRow, ProjectRow } from './queries.ts'

const MODEL_NAMES = {
  gemini: 'Gemini',
  chatgpt: 'ChatGPT',
  loris: 'Loris eco model',
  claude: 'Claude',
  mistral: 'Mistral',
  other: 'Model',
} as const

/** files/<upload id>-<name>: unique, and still recognisable in a file manager. */
export function filePath(upload: { id: string; fileName: string }): string {
  const safe = upload.fileName.replace(/[^\p{L}\p{N}._ -]/gu, '_').slice(0, 100) || 'file'
  return `files/${upload.id}-${safe}`
}

/** Where an exchange stands in its thread's tree (decision 012). */
export interface ExportPlace {
  /** Its place among its turn's versions, 1 = oldest. */
  version: number
  /** The exchange it follows, null for the first turn (or a parent outside the thread). */
  parentId: string | null
  shown: boolean
}

export function toExportedMessage(
  m: ExportMessageRow,
  place: ExportPlace,
  opts: { withFilePaths: boolean },
): ExportedMessage {
  return {
    id: m.id,
    version: place.version,
    parentId: place.parentId,
    origin: m.origin,
    selectedAt: m.selectedAt.toISOString(),
    shown: place.shown,
    content: m.content,
    response: m.response,
    status: m.status,
    errorMessage: m.errorMessage,
    chatModel: m.chatModel,
    provider: m.provider,
    modelId: m.modelId,
    inputTokens: m.inputTokens,
    outputTokens: m.outputTokens,
    latencyMs: m.latencyMs,
    co2Impact: m.co2Impact ?? null,
    mediaType: m.mediaType,
    attachment: m.upload
      ? {
          fileName: m.upload.fileName,
          mimeType: m.upload.mimeType,
          kind: m.upload.kind,
          size: m.upload.size,
          path: opts.withFilePaths ? filePath(m.upload) : null,
        }
      : null,
    createdAt: m.createdAt.toISOString(),
    completedAt: m.completedAt?.toISOString() ?? null,
    sources: sourcesOf(m.sources),
    toolSteps: toolStepsOf(m.toolSteps),
  }
}

/** The project a thread belongs to, as its export names it. */
export type ThreadProject = { id: string; name: string } | null

/** The export's head: everything but its messages. */
export function exportHead(
  thread: ExportThreadRow,
  now: Date,
  project: ThreadProject = null,
): Omit<ExportedThread, 'messages'> {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    thread: {
      id: thread.id,
      title: thread.title,
      chatModel: thread.chatModel,
      isFavorite: thread.isFavorite,
      isDefault: thread.isDefault,
      createdAt: thread.createdAt.toISOString(),
      lastMessageAt: thread.lastMessageAt.toISOString(),
      project,
    },
  }
}

export function toExportedThread(
  thread: ExportThreadRow,
  rows: ExportMessageRow[],
  now: Date,
  opts: { withFilePaths: boolean; project?: ThreadProject },
): ExportedThread {
  // Every version is exported; the tree helpers say where each stands (decision 012).
  const ids = new Set(rows.map((m) => m.id))
  const versionOf = new Map<string, number>()
  for (const versions of childrenByParent(rows).values()) {
    for (const [i, m] of versions.entries()) versionOf.set(m.id, i + 1)
  }
  const shown = new Set(activeBranch(rows).map((e) => e.row.id))
  return {
    ...exportHead(thread, now, opts.project ?? null),
    messages: rows.map((m) =>
      toExportedMessage(
        m,
        {
          version: versionOf.get(m.id) ?? 1,
          // A parent outside the thread (never expected) reads as the start, as in the app.
          parentId: m.parentId && ids.has(m.parentId) ? m.parentId : null,
          shown: shown.has(m.id),
        },
        opts,
      ),
    ),
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/

/**
 * A person's message as they typed it: each newline they typed stays a line break in any Markdown
 * reader (two spaces before it, CommonMark's hard break), where a single newline would join the
 * lines. Fenced code keeps its lines as they are.
 */
export function keepLineBreaks(text: string): string {
  const lines = text.split('\n')
  let fence: string | null = null
  return lines
    .map((line, i) => {
      const opens = FENCE.exec(line)?.[1]
      if (fence) {
        if (
          opens &&
          opens[0] === fence[0] &&
          opens.length >= fence.length &&
          !line.trim().slice(opens.length)
        )
          fence = null
        return line
      }
      if (opens) {
        fence = opens
        return line
      }
      const next = lines[i + 1]
      const broken = /( {2,}|\\)$/.test(line)
      if (!line.trim() || next === undefined || !next.trim() || FENCE.test(next) || broken) return line
      return `${line}  `
    })
    .join('\n')
}

const when = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')

/** The Markdown export's title and summary line. */
export function markdownHead(title: string, exportedAt: string, exchanges: number): string {
  return [
    `# ${title}`,
    '',
    `*Exported from Loris on ${when(exportedAt)} · ${exchanges} exchanges*`,
    '',
    '',
  ].join('\n')
}

/** One shown exchange in Markdown; `versions` is how many its turn has. */
export function markdownExchange(m: ExportedMessage, versions: number): string {
  const out: string[] = []
  out.push(`## You · ${when(m.createdAt)}`, '')
  if (versions > 1) out.push(`*Version ${m.version} of ${versions}; the others are in the JSON export*`, '')
  out.push(m.content ? keepLineBreaks(m.content) : '*(no text)*', '')
  if (m.attachment) {
    const name = m.attachment.fileName
    out.push(m.attachment.path ? `Attached: [${name}](../${m.attachment.path})` : `Attached: ${name}`, '')
  }
  const model = MODEL_NAMES[m.chatModel] + (m.modelId ? ` (${m.modelId})` : '')
  out.push(
    `## ${model}`,
    '',
    m.response || (m.status === 'failed' ? `*No reply: ${m.errorMessage ?? 'failed'}*` : ''),
    '',
  )
  if (m.status === 'interrupted') out.push(`*${m.errorMessage ?? 'Reply stopped'}*`, '')
  if (m.sources.length > 0)
    out.push(
      'Sources:',
      '',
      ...m.sources.map(
        (s, i) =>
          `${i + 1}. [${s.title.replace(/[[\]]/g, '')}](${s.url.replace(/[()\s]/g, encodeURIComponent)})`,
      ),
      '',
    )
  return `${out.join('\n')}\n`
}

/** The conversation as the thread shows it; a turn with other versions says so (they are in the JSON). */
export function toMarkdown(t: ExportedThread): string {
  const shown = t.messages.filter((m) => m.shown)
  const versions = new Map<string, number>()
  for (const m of t.messages) versions.set(m.parentId ?? '', (versions.get(m.parentId ?? '') ?? 0) + 1)
  return (
    markdownHead(t.thread.title, t.exportedAt, shown.length) +
    shown.map((m) => markdownExchange(m, versions.get(m.parentId ?? '') ?? 1)).join('')
  )
}

export function toExportedAccount(u: UserRow): ExportedAccount {
  return {
    id: u.id,
    email: u.email,
    signsInWithGoogle: u.googleId !== null,
    hasPassword: u.passwordHash !== null,
    isPremium: u.isPremium,
    subscriptionStatus: u.subscriptionStatus,
    subscriptionStartDate: u.subscriptionStartDate?.toISOString() ?? null,
    subscriptionEndDate: u.subscriptionEndDate?.toISOString() ?? null,
    co2Saved: u.co2Saved,
    co2SavedMin: u.co2SavedMin,
    co2SavedMax: u.co2SavedMax,
    treesPlanted: u.treesPlanted,
    aiInputChars: u.aiInputChars,
    aiOutputChars: u.aiOutputChars,
    aiUsageStartDate: u.aiUsageStartDate.toISOString(),
    createdAt: u.createdAt.toISOString(),
  }
}

/** files/project-<file id>-<name>.txt: the text a project file was read into. */
export function projectFilePath(file: { id: string; name: string }): string {
  return `${filePath({ id: `project-${file.id}`, fileName: file.name })}.txt`
}

/** assistant.json: the instructions and the projects, each file named by its text's path. */
export function toExportedAssistant(
  instructions: Instructions | undefined,
  projects: { row: ProjectRow; files: ProjectFileRow[] }[],
): ExportedAssistant {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    instructions: instructions ?? null,
    projects: projects.map(({ row, files }) => ({
      id: row.id,
      name: row.name,
      instructions: row.instructions,
      createdAt: row.createdAt.toISOString(),
      files: files.map((f) => ({
        name: f.name,
        mimeType: f.mimeType,
        chars: f.chars,
        path: projectFilePath(f),
      })),
    })),
  }
}

/** A file name from a title: letters, digits and dashes. */
export function slug(title: string): string {
  return (
    title
      .normalize('NFKD')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .toLowerCase() || 'thread'
  )
}
