// POST /api/messages as a multipart form (spec 7: the send fields plus one of image, audio or
// file). Sent with XMLHttpRequest because fetch cannot report upload progress over HTTP/1.1; the
// answer is handed back as a fetch Response whose body streams the event lines as they arrive,
// so the chat's stream reader reads it like any other.

import { setUploadProgress } from '#client/app/hooks/use-attachment-draft.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { ATTACHMENT_NOTICE_HEADER, attachmentFieldFor, decodeNoticeHeader } from '#contract/attachments.ts'

export interface MessageFormFields {
  content: string
  threadId: string | null
  isEcoMode: boolean
  useOpenAI: boolean
  clientMessageId: string
  webSearch?: boolean
  model?: string | null
}

export function messageForm(fields: MessageFormFields, file: File): FormData {
  const form = new FormData()
  form.set('content', fields.content)
  form.set('threadId', fields.threadId ?? '')
  form.set('isEcoMode', String(fields.isEcoMode))
  form.set('useOpenAI', String(fields.useOpenAI))
  form.set('clientMessageId', fields.clientMessageId)
  if (fields.webSearch) form.set('webSearch', 'true')
  if (fields.model) form.set('model', fields.model)
  form.set(attachmentFieldFor(file.type), file, file.name)
  return form
}

function headersOf(xhr: XMLHttpRequest): Headers {
  const headers = new Headers()
  for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
    const at = line.indexOf(':')
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim())
  }
  return headers
}

/** Posts the form; resolves once the answer's headers arrive. Rejects like fetch does. */
export function postForm(
  url: string,
  form: FormData,
  opts: { signal: AbortSignal; onUploadProgress?: (fraction: number) => void },
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    const encoder = new TextEncoder()
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined
    let delivered = 0
    let answered = false
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c
      },
      cancel: () => xhr.abort(),
    })
    const deliver = () => {
      const text = xhr.responseText
      if (text.length > delivered) controller?.enqueue(encoder.encode(text.slice(delivered)))
      delivered = text.length
    }
    const fail = (err: Error) => {
      if (answered) controller?.error(err)
      else reject(err)
    }
    xhr.open('POST', url)
    xhr.withCredentials = true
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onUploadProgress?.(e.loaded / e.total)
    }
    xhr.onreadystatechange = () => {
      if (answered || xhr.readyState < XMLHttpRequest.HEADERS_RECEIVED || xhr.status === 0) return
      answered = true
      resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers: headersOf(xhr) }))
    }
    xhr.onprogress = deliver
    xhr.onload = () => {
      deliver()
      controller?.close()
    }
    xhr.onerror = () => fail(new TypeError('Failed to fetch'))
    xhr.onabort = () => fail(new DOMException('The send was stopped', 'AbortError'))
    if (opts.signal.aborted) return xhr.abort()
    opts.signal.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(form)
  })
}

/**
 * Sends a message with its file, showing the upload's progress on the composer's chip, and says
 * so when the server read only part of the file (a long document).
 */
export async function postMessageForm(
  fields: MessageFormFields,
  file: File,
  signal: AbortSignal,
): Promise<Response> {
  const progress = (fraction: number) => setUploadProgress({ name: file.name, size: file.size, fraction })
  progress(0)
  try {
    const res = await postForm('/api/messages', messageForm(fields, file), {
      signal,
      onUploadProgress: progress,
    })
    const notice = decodeNoticeHeader(res.headers.get(ATTACHMENT_NOTICE_HEADER))
    if (notice) toast({ title: 'Only part of the file was read', description: notice })
    return res
  } finally {
    setUploadProgress(null)
  }
}
