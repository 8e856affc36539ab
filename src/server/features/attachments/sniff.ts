// Decides what a file is from its bytes (magic numbers, then a UTF-8 check for text), never from its
// name or the browser's Content-Type. Anything outside the spec's list is refused with 415.
import { fileTypeFromBuffer } from 'file-type'
import type { UploadKind } from '#contract/attachments.ts'
import { AppError } from '#server/lib/app-error.ts'
import { cfbReader } from './word-97.ts'

export interface Sniffed {
  kind: UploadKind
  /** The type we store and serve, from the content. */
  mimeType: string
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

const BY_EXT: Record<string, Sniffed> = {
  jpg: { kind: 'image', mimeType: 'image/jpeg' },
  png: { kind: 'image', mimeType: 'image/png' },
  gif: { kind: 'image', mimeType: 'image/gif' },
  webp: { kind: 'image', mimeType: 'image/webp' },
  pdf: { kind: 'document', mimeType: 'application/pdf' },
  docx: { kind: 'document', mimeType: DOCX },
  xlsx: { kind: 'document', mimeType: XLSX_MIME },
  // Audio containers; whether they really hold audio is settled when ffmpeg decodes them.
  webm: { kind: 'audio', mimeType: 'audio/webm' },
  mka: { kind: 'audio', mimeType: 'audio/webm' },
  ogg: { kind: 'audio', mimeType: 'audio/ogg' },
  oga: { kind: 'audio', mimeType: 'audio/ogg' },
  opus: { kind: 'audio', mimeType: 'audio/ogg' },
  wav: { kind: 'audio', mimeType: 'audio/wav' },
  mp3: { kind: 'audio', mimeType: 'audio/mpeg' },
  m4a: { kind: 'audio', mimeType: 'audio/mp4' },
  mp4: { kind: 'audio', mimeType: 'audio/mp4' },
}

export const SUPPORTED_TYPES_TEXT =
  'images (JPEG, PNG, GIF, WebP, SVG), documents (PDF, Word, Excel, plain text, CSV) or audio (WebM, Ogg, WAV, MP3, M4A)'

function unsupported(): AppError {
  return new AppError(
    'unsupported_media_type:attachment',
    `This type of file is not supported. Attach ${SUPPORTED_TYPES_TEXT}.`,
  )
}

/** Valid UTF-8 with no NUL or other binary control bytes: plain text, CSV or SVG source. */
export function decodeText(bytes: Uint8Array): string | null {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
  // Tab, line feed, form feed and carriage return are text; other C0 controls mean binary.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: binary files are told from text by their control bytes
  return /[\u0000-\u0008\u000b\u000e-\u001f]/.test(text) ? null : text
}

const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r'

/**
 * An SVG document: optional BOM, XML declaration, comments and doctype, then an <svg> root. A
 * single left-to-right scan (each prolog part is skipped with indexOf), so its time is linear in
 * the text whatever it holds; a regex with a repeated group backtracked exponentially on
 * `<!---->` repeated.
 */
export function hasSvgRoot(text: string): boolean {
  let at = text.startsWith('\uFEFF') ? 1 : 0
  let declarationAllowed = true
  for (;;) {
    while (isSpace(text[at])) at++
    let end: number
    if (declarationAllowed && text.startsWith('<?xml', at)) end = text.indexOf('>', at)
    else if (text.startsWith('<!--', at)) {
      end = text.indexOf('-->', at + 4)
      if (end >= 0) end += 2
    } else if (text.slice(at, at + 9).toUpperCase() === '<!DOCTYPE') end = text.indexOf('>', at)
    else break
    if (end < 0) return false
    at = end + 1
    declarationAllowed = false
  }
  return text.slice(at, at + 4).toLowerCase() === '<svg' && (isSpace(text[at + 4]) || text[at + 4] === '>')
}

/** Old Office binaries share one container (CFB); its streams say Word or Excel. */
function sniffCompoundFile(bytes: Uint8Array): Sniffed | null {
  try {
    const cfb = cfbReader.read(bytes, { type: 'buffer' })
    const names = new Set(cfb.FullPaths.map((p) => p.split('/').filter(Boolean).at(-1)?.toLowerCase()))
    if (names.has('worddocument')) return { kind: 'document', mimeType: 'application/msword' }
    if (names.has('workbook') || names.has('book'))
      return { kind: 'document', mimeType: 'application/vnd.ms-excel' }
  } catch {
    // Not a readable compound file.
  }
  return null
}

/** The kind and type of a file from its content; `fileName` only tells CSV from other text. */
export async function sniff(bytes: Uint8Array, fileName: string): Promise<Sniffed> {
  if (bytes.length === 0) throw new AppError('unprocessable:attachment', 'The file is empty')
  const detected = await fileTypeFromBuffer(bytes)
  if (detected) {
    if (detected.ext === 'cfb') {
      const office = sniffCompoundFile(bytes)
      if (office) return office
      throw unsupported()
    }
    const known = BY_EXT[detected.ext]
    if (known) return known
    throw unsupported()
  }
  const text = decodeText(bytes)
  if (text === null) throw unsupported()
  if (hasSvgRoot(text)) return { kind: 'image', mimeType: 'image/svg+xml' }
  // Both are text to us; the name only picks the label.
  return { kind: 'document', mimeType: fileName.toLowerCase().endsWith('.csv') ? 'text/csv' : 'text/plain' }
}
