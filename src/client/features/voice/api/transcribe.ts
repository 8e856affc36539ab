// POST /api/transcribe (spec 7): multipart `audio` → the words in it.
import { apiJson } from '#client/lib/api.ts'
import { transcriptionSchema } from '#contract/transcription.ts'

export async function transcribeAudio(file: File): Promise<string> {
  const form = new FormData()
  form.set('audio', file, file.name)
  const body = await apiJson<unknown>('POST', '/api/transcribe', form)
  return transcriptionSchema.parse(body).transcription
}
