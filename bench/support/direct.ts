// The bench's side of the stand-in's Gemini wire format, for the load client and the fit's test:
// the prompts it sends, the request, and the SSE it reads back.
import { createLineSplitter } from '#client/features/chat/lib/sse-lines.ts'

/**
 * A prompt of `n` words (`w0 w1 …`). The stand-in echoes it BENCH_WORDS_PER_CHUNK words a chunk: by
 * default one, a token's worth of text as a provider streams it (decision 028).
 */
export const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ')

/** The stand-in's streaming endpoint under `base` (its Gemini base URL). */
export const geminiStreamUrl = (base: string) => `${base}/models/gemini-2.5-pro:streamGenerateContent?alt=sse`

/** Asks a Gemini-style streaming endpoint (the stand-in, or the bare relay in front of it) for `text`. */
export const askGemini = (url: string, text: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'bench' },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text }] }] }),
  })

/** The text of one Gemini SSE event's data. */
export function geminiText(data: string): string | undefined {
  const e = JSON.parse(data) as { candidates?: { content?: { parts?: { text?: string }[] } }[] }
  return e.candidates?.[0]?.content?.parts?.[0]?.text
}

/** Calls `onData` with each SSE event's data as it arrives, and when (performance.now()). */
export async function readSse(res: Response, onData: (data: string, at: number) => void) {
  if (!res.body) return
  const lines = createLineSplitter()
  for await (const chunk of res.body.pipeThrough(new TextDecoderStream())) {
    const at = performance.now()
    for (const line of lines.push(chunk)) if (line.startsWith('data: ')) onData(line.slice(6), at)
  }
}
