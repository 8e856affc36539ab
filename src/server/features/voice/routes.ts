import { Hono } from 'hono'
import { limitText, UPLOAD_LIMITS } from '#contract/attachments.ts'
import type { Transcription } from '#contract/transcription.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { readFormBody } from '#server/lib/read-body.ts'
import { requireUser } from '#server/lib/session.ts'
import { spendTranscription } from './budget.ts'
import type { Transcriber } from './transcriber.ts'

export function voiceRoutes(deps: AppDeps, transcriber: Transcriber) {
  const { db } = deps.database
  return new Hono<AppEnv>().post('/transcribe', requireUser(deps), async (c) => {
    const user = c.get('user')
    if (!c.req.header('content-type')?.startsWith('multipart/form-data'))
      throw new AppError(
        'unsupported_media_type:body',
        'Send the recording as a multipart form field `audio`',
      )
    const form = await readFormBody(c)
    const audio = form.audio
    if (!(audio instanceof File))
      throw new AppError('bad_request:input', 'Attach the recording in the form field `audio`')
    if (audio.size > UPLOAD_LIMITS.audio)
      throw new AppError('payload_too_large:audio', `Audio files can be at most ${limitText('audio')}.`)
    // The same budget as audio attachments sent with a message (budget.ts).
    await spendTranscription(db, user.id)
    const transcription = await transcriber.transcribe(
      new Uint8Array(await audio.arrayBuffer()),
      c.req.raw.signal,
    )
    return c.json({ transcription } satisfies Transcription, 200)
  })
}
