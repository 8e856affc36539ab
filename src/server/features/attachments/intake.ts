// A file sent with a message: checked by content and size, turned into what the model reads (image
// bytes, document text, a recording's transcript) and stored, in that order, so a refused file
// leaves nothing behind. The chat feature receives this as its attachment reader (app.ts).
import { AppError } from '#server/lib/app-error.ts'
import { firstFrameAsPng } from './gif-frame.ts'
import type { Inspected } from './inspect.ts'
import { type ParsePool, sharedParsePool } from './parse-pool.ts'
import { deleteIfUnreferenced, insertUpload } from './queries.ts'
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
  media: { url: string; type: 'image' | 'document'; uploadId: string; name: string; mimeType: string } | null
  /** Said to the user when the model gets less than the whole file. */
  notice?: string
  /**
   * Deletes the upload again unless a message now refers to it (a failed or repeated send); its
   * file, fresh from the put, is left to the hourly sweep (decision 042).
   */
  settle(): Promise<void>
}

export interface IntakeDeps extends UploadsDeps {
  /** The recording's words, on the sender's transcription budget. */
  transcribe(userId: string, bytes: Uint8Array, signal?: AbortSignal): Promise<string>
  /** Where files are read; the process's shared pool unless a test brings its own. */
  parsePool?: ParsePool
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

async function forModel(
  d: IntakeDeps,
  userId: string,
  bytes: Uint8Array,
  { sniffed, extracted }: Inspected,
  filename: string,
  content: string,
  signal?: AbortSignal,
): Promise<Pick<Intake, 'content' | 'attachment' | 'notice'>> {
  const { kind, mimeType } = sniffed
  if (kind === 'audio') {
    // A voice message's words are what the user said: the message itself when nothing was typed,
    // else the transcript of the attached recording.
    const transcript = await d.transcribe(userId, bytes, signal)
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
  // Documents and SVG images (models read an SVG's source) come with their text.
  if (!extracted) throw new AppError('unprocessable:attachment', 'This file could not be read.')
  let text = extracted.text
  let notice: string | undefined
  const parts: string[] = []
  if (extracted.pages)
    parts.push(`the first ${fmt(extracted.pages.read)} of its ${fmt(extracted.pages.total)} pages`)
  if (extracted.truncated)
    parts.push(`the first ${fmt(extracted.text.length)} of its ${fmt(extracted.totalChars)} characters`)
  if (parts.length) {
    const part = parts.join(', and of those ')
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
    // Sniffing, the size check and reading the text all happen in the parse pool's workers.
    const inspected = await (d.parsePool ?? sharedParsePool()).inspect(bytes, fileName)
    const { sniffed } = inspected
    const model = await forModel(d, user.id, bytes, inspected, fileName, content, signal)
    if (sniffed.kind === 'audio') return { ...model, media: null, settle: async () => {} }

    // The row follows the put: a reused object is marked fresh by it, so a deletion elsewhere
    // that finds no row for these bytes meanwhile spares it (storage.ts, decision 042).
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
      media: {
        url: `/api/uploads/${row.id}`,
        type: sniffed.kind,
        uploadId: row.id,
        name: fileName,
        mimeType: sniffed.mimeType,
      },
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
