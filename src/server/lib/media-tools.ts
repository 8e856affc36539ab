// The ffmpeg runs every feature that decodes media shares (recordings in voice, GIF frames in
// attachments). ffmpeg works outside the server's thread, but each run costs a process.
import { fileLimitErrors } from '#contract/errors.ts'
import { AppError } from './app-error.ts'
import { ConcurrencyLimit } from './concurrency-limit.ts'

/** Two at once and eight waiting, so a burst of uploads cannot start a process each; the next is 503. */
export const mediaTools = new ConcurrencyLimit(
  2,
  8,
  () =>
    new AppError('service_unavailable:media_busy', fileLimitErrors['service_unavailable:media_busy'], {
      headers: { 'retry-after': '5' },
    }),
)
