// Files sent with a message (spec sections 5 and 7). Shared by the picker, the drop zone and the
// server's checks, so both sides name the same types and limits.

export const MB = 1024 * 1024

/** Largest file of each kind; over it the server answers 413 naming the limit. */
export const UPLOAD_LIMITS = {
  image: 10 * MB,
  document: 20 * MB,
  audio: 25 * MB,
} as const
export type UploadKind = keyof typeof UPLOAD_LIMITS

export const limitText = (kind: UploadKind) => `${UPLOAD_LIMITS[kind] / MB} MB`

/** Documents longer than this many characters are cut; the model and the user are told. */
export const DOCUMENT_TEXT_BUDGET = 60_000

/** The multipart field a file travels in: image/* → image, audio/* → audio, else file (spec 5). */
export type AttachmentField = 'image' | 'audio' | 'file'
export function attachmentFieldFor(mimeType: string): AttachmentField {
  if (mimeType.startsWith('image/')) return 'image'
  if (mimeType.startsWith('audio/')) return 'audio'
  return 'file'
}

/** The `accept` of the two picker choices (spec 5). */
export const IMAGE_PICKER_ACCEPT = 'image/*'
export const FILE_PICKER_ACCEPT = '.pdf,.doc,.docx,.txt,.csv,.xlsx,.xls'

/** The types a file is kept as: images the model sees, documents whose text it reads. */
export const UPLOAD_TYPES = {
  image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/svg+xml'],
  document: [
    'application/pdf',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'text/plain',
    'text/csv',
    'application/vnd.ms-excel',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ],
} as const

const DROPPABLE_TYPES = new Set<string>(['image/jpg', ...UPLOAD_TYPES.image, ...UPLOAD_TYPES.document])
// Browsers leave `type` empty for some extensions (often .csv, .doc on Linux); the name decides then.
const DROPPABLE_EXTENSIONS = /\.(jpe?g|png|gif|webp|svg|pdf|docx?|txt|csv|xlsx?)$/i

/** Whether a dropped file is taken (spec 5): the listed types or any image; others are ignored. */
export function isDroppable(file: { type: string; name: string }): boolean {
  if (file.type.startsWith('image/') || DROPPABLE_TYPES.has(file.type)) return true
  return file.type === '' && DROPPABLE_EXTENSIONS.test(file.name)
}

/**
 * Response header on a POST /api/messages stream when the attachment was altered on its way to the
 * model (a long document cut to DOCUMENT_TEXT_BUDGET); its value is a sentence for people,
 * percent-encoded (UTF-8, as RFC 5987 values are): a header carries only bytes up to U+00FF and
 * the sentence names the file, whose name may be in any script.
 */
export const ATTACHMENT_NOTICE_HEADER = 'x-loris-attachment-notice'

export function encodeNoticeHeader(notice: string): string {
  // A lone surrogate in a file name would make encodeURIComponent throw: replace it first.
  const wellFormed = notice.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  )
  return encodeURIComponent(wellFormed)
}

/** The sentence, or null when the header is missing or not a valid encoding. */
export function decodeNoticeHeader(value: string | null): string | null {
  if (!value) return null
  try {
    return decodeURIComponent(value)
  } catch {
    return null
  }
}
/**
 * How far the server goes reading one file (docs/decisions/008-parsing-isolation.md).
 * Files are read in a separate worker; one that goes past a limit is refused with a 422 naming it,
 * except pages, where the first PAGES are read and the person is told.
 */
export const PARSE_LIMITS = {
  /** Wall-clock time to read one file, in seconds. */
  seconds: 5,
  /** Memory the reading worker may use (its JavaScript heap), in MB. */
  memoryMb: 256,
  /** Bytes one compressed part of a file (a zip entry, a PDF stream) may inflate to. */
  entryBytes: 50 * MB,
  /** Bytes all compressed parts of one file may inflate to together. */
  totalBytes: 200 * MB,
  /** PDF pages read; later pages are left out and the person is told. */
  pages: 300,
  /** Sheets in one spreadsheet. */
  sheets: 100,
  /** Cells in one spreadsheet, all sheets together. */
  cells: 200_000,
} as const
export type ParseLimits = { readonly [K in keyof typeof PARSE_LIMITS]: number }
