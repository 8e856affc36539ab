import { limitText, UPLOAD_LIMITS, type UploadKind } from '#contract/attachments.ts'

/** What a chosen file counts as, from the browser's type (the server decides from the bytes). */
export function kindOfFile(file: { type: string }): UploadKind {
  if (file.type.startsWith('image/')) return 'image'
  if (file.type.startsWith('audio/')) return 'audio'
  return 'document'
}

/** How the exchange shows a sent file: images and documents; a recording shows as its words. */
export function mediaTypeOfFile(file: { type: string }): 'image' | 'document' | null {
  const kind = kindOfFile(file)
  return kind === 'audio' ? null : kind
}

const NAMES: Record<UploadKind, string> = { image: 'Images', document: 'Documents', audio: 'Audio files' }

/** The refusal the server would give, said before uploading anything; null when within the limit. */
export function overLimitMessage(file: { type: string; size: number }): string | null {
  const kind = kindOfFile(file)
  return file.size > UPLOAD_LIMITS[kind] ? `${NAMES[kind]} can be at most ${limitText(kind)}.` : null
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KB`
  return `${Math.round(bytes / (1024 * 102.4)) / 10} MB`
}

const DOCUMENT_TYPES: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/msword': 'Word document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document',
  'application/vnd.ms-excel': 'Excel spreadsheet',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel spreadsheet',
  'text/csv': 'CSV',
  'text/plain': 'Text file',
}
const BY_EXTENSION: Record<string, string> = {
  pdf: 'PDF',
  doc: 'Word document',
  docx: 'Word document',
  xls: 'Excel spreadsheet',
  xlsx: 'Excel spreadsheet',
  csv: 'CSV',
  txt: 'Text file',
}

/**
 * What kind of document a sent file is, in words ("PDF", "Word document"): from the type the
 * server read from its bytes, else (a file still being sent, whose browser type may be empty)
 * from its name; null when neither tells.
 */
export function documentTypeLabel(mime: string | null, name: string | null): string | null {
  const byType = mime ? DOCUMENT_TYPES[mime.split(';')[0]?.trim().toLowerCase() ?? ''] : undefined
  if (byType) return byType
  const dot = name?.lastIndexOf('.') ?? -1
  const extension = name && dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
  return BY_EXTENSION[extension] ?? null
}
