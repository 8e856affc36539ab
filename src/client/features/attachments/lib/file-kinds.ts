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
