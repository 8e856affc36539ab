// Reads a send request into one shape whatever its encoding: JSON, or a multipart form (spec 7: the
// same fields plus one of image, audio or file) whose file the attachments feature takes in.
import type { Context } from 'hono'
import type { ChatModel } from '#contract/config.ts'
import { type SendMessageFields, sendMessageFields } from '#contract/messages.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { UserRow } from '#server/lib/context.ts'
import { readFormBody, readJsonBody } from '#server/lib/read-body.ts'
import type { PromptAttachment } from './history.ts'

/** A send's fields (the contract's), its mode, and the file it carries. */
export type SendInput = Omit<SendMessageFields, 'isEcoMode' | 'useOpenAI'> & {
  chatModel: ChatModel
  /** What the model is sent along with the text. */
  attachment: PromptAttachment | null
  /** What is stored on the message for the client to show. */
  media: {
    url: string
    type: 'image' | 'document'
    uploadId: string | null
    name: string
    mimeType: string
  } | null
  /** Said to the user along with the reply (a long document was cut). */
  notice?: string
  /** Runs once the send is answered: drops a stored file no message ended up using. */
  settle?: () => Promise<void>
}

/**
 * Takes in the attached file (checks it, stores it, reads it for the model) and says what the
 * message becomes: a recording's words are the message when nothing was typed. From app.ts.
 */
export type AttachmentReader = (
  user: UserRow,
  file: File,
  content: string,
  signal?: AbortSignal,
) => Promise<Pick<SendInput, 'content' | 'attachment' | 'media' | 'notice' | 'settle'>>

const FILE_FIELDS = ['image', 'audio', 'file'] as const

/** chatgpt if the OpenAI option is set, loris if eco mode is on, otherwise gemini (spec 4). */
export function modeOf(fields: Pick<SendMessageFields, 'isEcoMode' | 'useOpenAI'>): ChatModel {
  if (fields.useOpenAI) return 'chatgpt'
  return fields.isEcoMode ? 'loris' : 'gemini'
}

function fromFields(raw: unknown): SendInput {
  const { isEcoMode, useOpenAI, ...fields } = sendMessageFields.parse(raw)
  return { ...fields, chatModel: modeOf({ isEcoMode, useOpenAI }), attachment: null, media: null }
}

/** What makes a send wrong whatever its file: checked before a file is stored. */
function checkFields(input: SendInput, withFile: boolean): SendInput {
  if (input.editOf && input.regenerateOf)
    throw new AppError('bad_request:input', 'Edit or regenerate, not both at once')
  if (
    input.temporary &&
    (input.threadId || input.editOf || input.regenerateOf || input.projectId || withFile)
  )
    throw new AppError(
      'bad_request:input',
      'A temporary chat has no thread, project, versions or files: send its text and history only',
    )
  if (!input.temporary && input.history)
    throw new AppError('bad_request:input', 'Only a temporary chat sends its history')
  // A regenerated reply answers the stored text: the send carries none.
  if (!input.content.trim() && !withFile && !input.regenerateOf)
    throw new AppError('bad_request:input', 'Please write a message or attach a file')
  return input
}

export async function readSendInput(c: Context, readAttachment?: AttachmentReader): Promise<SendInput> {
  const type = c.req.header('content-type') ?? ''
  if (type.startsWith('application/json')) return checkFields(fromFields(await readJsonBody(c)), false)
  if (!type.startsWith('multipart/form-data'))
    throw new AppError('unsupported_media_type:body', 'Send JSON or a multipart form')
  const form = await readFormBody(c)
  const file = FILE_FIELDS.map((f) => form[f]).find((v) => v instanceof File)
  // The fields are checked first: a bad form never stores its file (nothing would release it).
  const input = checkFields(fromFields(form), file instanceof File)
  if (!(file instanceof File)) return input
  if (!readAttachment)
    throw new AppError('unsupported_media_type:attachment', 'Attachments are not supported')
  return { ...input, ...(await readAttachment(c.get('user'), file, input.content, c.req.raw.signal)) }
}
