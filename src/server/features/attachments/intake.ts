// A file sent with a message: checked by content and size, turned into what the model reads (image
// bytes, document text, a recording's transcript) and stored, in that order, so a refused file
// leaves nothing behind. The chat feature receives this as its attachment reader (app.ts).
import { DOCUMENT_TEXT_BUDGET, limitText, UPLOAD_LIMITS, type UploadKind } from '#contract/attachments.ts'
import { AppError } from '#server/lib/app-error.ts'
import { type ExtractedText, extractDocumentText } from './extract.ts'
import { firstFrameAsPng } from './gif-frame.ts'
import { deleteIfUnreferenced, insertUpload } from './queries.ts'
import { decodeText, type Sniffed, sniff } from './sniff.ts'
import { removeUnreferencedObjects, type UploadsDeps } from './sweep.ts'

/** What the model is sent (the chat feature's PromptAttachment). */
export interface ModelAttachment {
  kind: 'image' | 'file'
  data: Uint8Array
  mediaType: string
  filename?: string
  extractedText?: string
}

export interface Intake {
  /** The message text: what was typed, or a recording's words when nothing was. */
  content: string
  attachment: ModelAttachment | null
  /** Stored on the message for the client to show; null for audio (its words are the message). */
  media: { url: string; type: 'image' | 'document'; uploadId: string } | null
  /** Said to the user when the model gets less than the whole file. */
  notice?: string
  /** Deletes the stored file again unless a message now refers to it (a failed or repeated send). */
  settle(): Promise<void>
}

export interface IntakeDeps extends UploadsDeps {
  transcribe(bytes: Uint8Array, signal?: AbortSignal): Promise<string>
}

const TOO_LARGE: Record<UploadKind, string> = {
  image: `Images can be at most ${limitText('image')}.`,
  document: `Documents can be at most ${limitText('document')}.`,
  audio: `Audio files can be at most ${limitText('audio')}.`,
}

/** A name safe to store and to send back in a header: no path, no control characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  // Control characters or quotes would break the Content-Disposition header it is served with.
  const clean = Array.from(base)
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f && ch !== '"')
    .join('')
    .trim()
    .slice(0, 200)
  return clean || 'file'
}

const fmt = (n: number) => n.toLocaleString('en-US')

function svgSource(bytes: Uint8Array): ExtractedText {
  const text = decodeText(bytes) ?? ''
  const truncated = text.length > DOCUMENT_TEXT_BUDGET
  return { text: text.slice(0, DOCUMENT_TEXT_BUDGET), totalChars: text.length, truncated }
}

async function forModel(
  d: IntakeDeps,
  bytes: Uint8Array,
  sniffed: Sniffed,
  filename: string,
  content: string,
  signal?: AbortSignal,
): Promise<Pick<Intake, 'content' | 'attachment' | 'notice'>> {
  const { kind, mimeType } = sniffed
  if (kind === 'audio') {
    // A voice message's words are what the user said: the message itself when nothing was typed,
    // else the transcript of the attached recording.
    const transcript = await d.transcribe(bytes, signal)
    if (!content.trim()) return { content: transcript, attachment: null }
    const voice = `voice message ${filename} (transcript)`
    return {
      content,
      attachment: {
        kind: 'file',
        data: bytes,
        mediaType: mimeType,
        filename: voice,
        extractedText: transcript,
      },
    }
  }
  if (mimeType === 'image/gif') {
    const png = await firstFrameAsPng(bytes)
    const image = png ? { data: png, mediaType: 'image/png' } : { data: bytes, mediaType: mimeType }
    return { content, attachment: { kind: 'image', ...image, filename } }
  }
  if (kind === 'image' && mimeType !== 'image/svg+xml')
    return { content, attachment: { kind: 'image', data: bytes, mediaType: mimeType, filename } }
  // Models take no SVG images: they read its source, which is what an SVG is.
  const extracted =
    mimeType === 'image/svg+xml' ? svgSource(bytes) : await extractDocumentText(bytes, mimeType)
  let text = extracted.text
  let notice: string | undefined
  if (extracted.truncated) {
    const part = `the first ${fmt(extracted.text.length)} of its ${fmt(extracted.totalChars)} characters`
    text = `[This document was truncated: only ${part} are included below. Tell the user that your answer is based on the beginning of the document only.]\n${text}`
    notice = `${filename} is long: only ${part} were read.`
  }
  return {
    content,
    attachment: { kind: 'file', data: bytes, mediaType: mimeType, filename, extractedText: text },
    notice,
  }
}

export function createAttachmentIntake(d: IntakeDeps) {
  return async (user: { id: string }, file: File, content: string, signal?: AbortSignal): Promise<Intake> => {
    const bytes = new Uint8Array(await file.arrayBuffer())
    const fileName = cleanFileName(file.name)
    const sniffed = await sniff(bytes, fileName)
    if (bytes.length > UPLOAD_LIMITS[sniffed.kind])
      throw new AppError(`payload_too_large:${sniffed.kind}`, TOO_LARGE[sniffed.kind])
    const model = await forModel(d, bytes, sniffed, fileName, content, signal)
    if (sniffed.kind === 'audio') return { ...model, media: null, settle: async () => {} }

    const storageKey = await d.storage.put(bytes)
    const row = await insertUpload(d.db, {
      userId: user.id,
      storageKey,
      mimeType: sniffed.mimeType,
      kind: sniffed.kind,
      fileName,
      size: bytes.length,
      // Kept for search (decision 013); images have none.
      extractedText: model.attachment?.extractedText ?? null,
    })
    return {
      ...model,
      media: { url: `/api/uploads/${row.id}`, type: sniffed.kind, uploadId: row.id },
      async settle() {
        try {
          const key = await deleteIfUnreferenced(d.db, row.id)
          if (key) await removeUnreferencedObjects(d, { keys: [key] })
        } catch (err) {
          d.log.warn({ err, uploadId: row.id }, 'releasing an unused upload failed')
        }
      },
    }
  }
}

export type AttachmentIntake = ReturnType<typeof createAttachmentIntake>
