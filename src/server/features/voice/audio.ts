// Every engine gets the same input: the recording decoded by ffmpeg to 16 kHz mono 16-bit WAV in a
// private temp directory, which is always removed afterwards (try/finally), whatever happens.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MAX_RECORDING_SECONDS } from '#contract/transcription.ts'
import { AppError } from '#server/lib/app-error.ts'
import { mediaTools } from '#server/lib/media-tools.ts'

export const SAMPLE_RATE = 16_000
const BYTES_PER_SECOND = SAMPLE_RATE * 2
// Shorter than this is a click of the button, not speech.
const MIN_SECONDS = 0.2
const TOOL_TIMEOUT_MS = 120_000
// Decoding runs in ffmpeg's own process, never on the server's thread. Two minutes of audio
// decode in about a second; a file still decoding after this long is refused as undecodable.
const DECODE_TIMEOUT_MS = 20_000

export interface DecodedAudio {
  /** The WAV file (16 kHz, mono, s16le). */
  wavPath: string
  seconds: number
  /** The directory the engine may write scratch files into; removed with everything else. */
  dir: string
}

export interface RunResult {
  stdout: string
  stderr: string
}

/** Runs a program; rejects with `code: 'ENOENT'` when it is not installed. */
export function run(
  file: string,
  args: string[],
  signal?: AbortSignal,
  timeout = TOOL_TIMEOUT_MS,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { timeout, maxBuffer: 8 * 1024 * 1024, signal, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error) reject(Object.assign(error, { stdout, stderr }))
        else resolve({ stdout, stderr })
      },
    )
  })
}

export const isMissingBinary = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code === 'ENOENT'

/** Length of the PCM data in a WAV file, from its `data` chunk header. */
export function wavDataBytes(wav: Uint8Array): number {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength)
  let at = 12
  while (at + 8 <= wav.length) {
    const id = String.fromCharCode(wav[at]!, wav[at + 1]!, wav[at + 2]!, wav[at + 3]!)
    const size = view.getUint32(at + 4, true)
    if (id === 'data') return Math.min(size, wav.length - at - 8)
    at += 8 + size + (size % 2)
  }
  return 0
}

export interface DecodeOptions {
  ffmpeg?: string
  tmpRoot?: string
  maxSeconds?: number
  signal?: AbortSignal
}

/** Decodes `bytes`, checks the length, and hands the WAV to `use`; the files never outlive it. */
export async function withDecodedAudio<T>(
  bytes: Uint8Array,
  opts: DecodeOptions,
  use: (audio: DecodedAudio) => Promise<T>,
): Promise<T> {
  const maxSeconds = opts.maxSeconds ?? MAX_RECORDING_SECONDS
  const dir = await mkdtemp(join(opts.tmpRoot ?? tmpdir(), 'loris-audio-'))
  try {
    const input = join(dir, 'input')
    const wavPath = join(dir, 'audio.wav')
    await writeFile(input, bytes)
    try {
      // Decoding stops just past the limit: a longer file is refused without decoding all of it.
      // A second of grace: the browser stops at 2:00 on its timer, a little after in the file.
      const limit = String(maxSeconds + 2)
      const out = ['-vn', '-ac', '1', '-ar', String(SAMPLE_RATE), '-c:a', 'pcm_s16le', '-f', 'wav', wavPath]
      const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', input, '-t', limit]
      // -fs caps the WAV written at the longest allowed recording: nothing can make it grow further.
      const maxWav = String((maxSeconds + 3) * BYTES_PER_SECOND + 1024)
      await mediaTools.run(() =>
        run(opts.ffmpeg ?? 'ffmpeg', [...args, '-fs', maxWav, ...out], opts.signal, DECODE_TIMEOUT_MS),
      )
    } catch (err) {
      if (err instanceof AppError) throw err
      if (isMissingBinary(err))
        throw new AppError(
          'service_unavailable:transcription',
          'Voice input needs ffmpeg on the server: install it (apt-get install ffmpeg).',
        )
      throw new AppError('unprocessable:audio', 'The recording could not be decoded. Please record again.')
    }
    const seconds = wavDataBytes(await readFile(wavPath)) / BYTES_PER_SECOND
    if (seconds > maxSeconds + 1)
      throw new AppError(
        'payload_too_large:audio',
        `Recordings can be at most ${maxSeconds / 60} minutes long. Please record a shorter message.`,
      )
    if (seconds < MIN_SECONDS) throw new AppError('unprocessable:audio', 'The recording is empty.')
    return await use({ wavPath, seconds, dir })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
