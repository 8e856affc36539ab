// Everything that reads a file's content, in one call: what it is (sniff), whether its size is
// allowed, and the text a model reads (documents and SVG source). Runs inside the parse worker
// (parse-worker.ts) so that no parser, regex or decompressor ever runs on the server's main thread.
import { DOCUMENT_TEXT_BUDGET, limitText, UPLOAD_LIMITS, type UploadKind } from '#contract/attachments.ts'
import { AppError } from '#server/lib/app-error.ts'
import { type ExtractedText, extractDocumentText } from './extract.ts'
import { decodeText, type Sniffed, sniff } from './sniff.ts'

export interface Inspected {
  sniffed: Sniffed
  /** The text the model reads, for documents and SVG images. */
  extracted?: ExtractedText
}

const TOO_LARGE: Record<UploadKind, string> = {
  image: `Images can be at most ${limitText('image')}.`,
  document: `Documents can be at most ${limitText('document')}.`,
  audio: `Audio files can be at most ${limitText('audio')}.`,
}

function svgSource(bytes: Uint8Array): ExtractedText {
  const text = decodeText(bytes) ?? ''
  const truncated = text.length > DOCUMENT_TEXT_BUDGET
  return { text: text.slice(0, DOCUMENT_TEXT_BUDGET), totalChars: text.length, truncated }
}

export async function inspectFile(
  bytes: Uint8Array,
  fileName: string,
  textBudget = DOCUMENT_TEXT_BUDGET,
): Promise<Inspected> {
  const sniffed = await sniff(bytes, fileName)
  if (bytes.length > UPLOAD_LIMITS[sniffed.kind])
    throw new AppError(`payload_too_large:${sniffed.kind}`, TOO_LARGE[sniffed.kind])
  // Models take no SVG images: they read its source, which is what an SVG is.
  if (sniffed.mimeType === 'image/svg+xml') return { sniffed, extracted: svgSource(bytes) }
  if (sniffed.kind !== 'document') return { sniffed }
  return { sniffed, extracted: await extractDocumentText(bytes, sniffed.mimeType, textBudget) }
}
