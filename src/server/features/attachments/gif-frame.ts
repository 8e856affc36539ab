// Gemini takes PNG, JPEG and WebP images but not GIF, and OpenAI no animated GIF: the model is
// sent the first frame as PNG (the stored file stays the GIF the user sent).
import { spawn } from 'node:child_process'
import { mediaTools } from '#server/lib/media-tools.ts'

// ffmpeg runs in its own process (off the server's thread); one frame takes well under a second,
// so a GIF still being decoded after 15 s is killed and the model gets the GIF itself, which
// Gemini refuses. 5 s was not enough on a loaded machine: a full test run once saw ffmpeg killed
// there, and the send would have failed for the person; waiting longer costs only that send.
const TIMEOUT_MS = 15_000

/** The first frame as PNG bytes, or null when ffmpeg is missing or cannot read the file. */
export async function firstFrameAsPng(gif: Uint8Array, ffmpeg = 'ffmpeg'): Promise<Uint8Array | null> {
  // When ffmpeg is busy with others, the model gets the GIF itself rather than the person a 503.
  return mediaTools.run(() => decodeFirstFrame(gif, ffmpeg)).catch(() => null)
}

function decodeFirstFrame(gif: Uint8Array, ffmpeg: string): Promise<Uint8Array | null> {
  return new Promise((resolve) => {
    const child = spawn(
      ffmpeg,
      ['-nostdin', '-hide_banner', '-loglevel', 'error', '-f', 'gif_pipe', '-i', 'pipe:0'].concat([
        '-frames:v',
        '1',
        '-f',
        'image2pipe',
        '-c:v',
        'png',
        'pipe:1',
      ]),
      { stdio: ['pipe', 'pipe', 'ignore'], timeout: TIMEOUT_MS, killSignal: 'SIGKILL' },
    )
    const out: Buffer[] = []
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.on('error', () => resolve(null))
    child.on('close', (code) => resolve(code === 0 && out.length ? new Uint8Array(Buffer.concat(out)) : null))
    // A GIF ffmpeg stops reading early (it needs one frame) closes the pipe: not an error.
    child.stdin.on('error', () => {})
    child.stdin.end(gif)
  })
}
