// POST /api/transcribe (spec 7): multipart `audio` → the words in it.
import { apiJson } from '#client/lib/api.ts'

export async function transcribeAudio(file: File): Promise<string> {
  const form = new FormData()
  form.set('audio', file, file.name)
  // The schema (and zod) load while the words are being recognised, not with the chat (decision 044).
  const [body, { transcriptionSchema }] = await Promise.all([
    apiJson<unknown>('POST', '/api/transcribe', form),
    import('#contract/transcription.ts'),
  ])
  return transcriptionSchema.parse(body).transcription
}
