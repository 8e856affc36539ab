// Reads a send request into one shape whatever its encoding. JSON today; a multipart form (spec 7:
// the same fields plus one of image, audio or file) fills `attachment` and `media` in a later issue.
import type { Context } from 'hono'
import type { ChatModel } from '#contract/config.ts'
import { type SendMessageFields, sendMessageFields } from '#contract/messages.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { PromptAttachment } from './history.ts'

export interface SendInput {
  content: string
  threadId: string | null
  chatModel: ChatModel
  clientMessageId: string | null
  /** What the model is sent along with the text. */
  attachment: PromptAttachment | null
  /** What is stored on the message for the client to show. */
  media: { url: string; type: 'image' | 'document'; uploadId: string | null } | null
}

/** chatgpt if the OpenAI option is set, loris if eco mode is on, otherwise gemini (spec 4). */
export function modeOf(fields: Pick<SendMessageFields, 'isEcoMode' | 'useOpenAI'>): ChatModel {
  if (fields.useOpenAI) return 'chatgpt'
  return fields.isEcoMode ? 'loris' : 'gemini'
}

function fromFields(raw: unknown): SendInput {
  const fields = sendMessageFields.parse(raw)
  return {
    content: fields.content,
    threadId: fields.threadId,
    chatModel: modeOf(fields),
    clientMessageId: fields.clientMessageId,
    attachment: null,
    media: null,
  }
}

export async function readSendInput(c: Context): Promise<SendInput> {
  const type = c.req.header('content-type') ?? ''
  let input: SendInput
  if (type.startsWith('application/json')) {
    input = fromFields(await c.req.json())
  } else if (type.startsWith('multipart/form-data')) {
    const form = await c.req.parseBody()
    if (['image', 'audio', 'file'].some((f) => form[f] instanceof File)) {
      // Attachments issue: store the upload, fill input.attachment and input.media here.
      throw new AppError('unsupported_media_type:attachment', 'Attachments are not supported yet')
    }
    input = fromFields(form)
  } else {
    throw new AppError('unsupported_media_type:body', 'Send JSON or a multipart form')
  }
  if (!input.content.trim() && !input.attachment)
    throw new AppError('bad_request:input', 'Please write a message or attach a file')
  return input
}
