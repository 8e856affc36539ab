// What the model is sent: a short system prompt, as much of the thread as fits a token budget,
// and the new message (with its attachment, once attachments exist).
import type { FilePart, ImagePart, ModelMessage, TextPart } from 'ai'

export const SYSTEM_PROMPT = [
  'You are Loris, an eco-minded AI assistant.',
  'Answer helpfully and accurately. Be concise: shorter answers use less energy.',
  'Use Markdown (lists, tables, code blocks) when it makes an answer clearer.',
].join(' ')

/** A stored exchange, oldest first. */
export interface HistoryExchange {
  content: string
  response: string
  status: 'streaming' | 'complete' | 'interrupted' | 'failed'
  mediaType: 'image' | 'document' | null
}

/** A file sent along with the new message (later issue: multipart uploads). */
export interface PromptAttachment {
  kind: 'image' | 'file'
  data: Uint8Array | URL
  mediaType: string
  filename?: string
  /** Text pulled out of a document the model cannot read natively; sent as text instead of bytes. */
  extractedText?: string
}

// ~4 characters per token for English; close enough for a budget, and errs towards sending less.
export const estimateTokens = (text: string) => Math.ceil(text.length / 4) + 4

/** The user's turn as text; a file the model cannot see again is named by a note. */
export function userText(e: Pick<HistoryExchange, 'content' | 'mediaType'>): string {
  if (!e.mediaType) return e.content
  const note = e.mediaType === 'image' ? '[The user shared an image]' : '[The user shared a document]'
  return e.content ? `${note}\n${e.content}` : note
}

/**
 * Keeps the newest exchanges whose estimated size fits `budgetTokens`, whole exchanges only.
 * Exchanges without a reply (failed, or still streaming) are skipped: the model would otherwise
 * see two user turns in a row and answer the stale one.
 */
export function fitHistory(exchanges: HistoryExchange[], budgetTokens: number): ModelMessage[] {
  const kept: ModelMessage[][] = []
  let used = 0
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const e = exchanges[i] as HistoryExchange
    if (e.status === 'failed' || e.status === 'streaming' || !e.response) continue
    const user = userText(e)
    const cost = estimateTokens(user) + estimateTokens(e.response)
    if (used + cost > budgetTokens) break
    used += cost
    kept.push([
      { role: 'user', content: user },
      { role: 'assistant', content: e.response },
    ])
  }
  return kept.reverse().flat()
}

/** The new user turn: text, then the attachment as an image/file part or its extracted text. */
export function currentTurn(content: string, attachment?: PromptAttachment | null): ModelMessage {
  if (!attachment) return { role: 'user', content }
  const { data, mediaType, filename, extractedText } = attachment
  const parts: (TextPart | ImagePart | FilePart)[] = [
    extractedText !== undefined
      ? { type: 'text', text: `Attached ${filename ?? 'document'}:\n${extractedText}` }
      : attachment.kind === 'image'
        ? { type: 'image', image: data, mediaType }
        : { type: 'file', data, mediaType, filename },
  ]
  if (content) parts.push({ type: 'text', text: content })
  return { role: 'user', content: parts }
}

export interface Prompt {
  system: string
  messages: ModelMessage[]
}

export function buildPrompt(
  exchanges: HistoryExchange[],
  current: { content: string; attachment?: PromptAttachment | null },
  budgetTokens: number,
  /** Instructions and retrieved passages (prompt-context.ts), after Loris's own prompt. */
  extraSystem = '',
): Prompt {
  return {
    system: extraSystem ? `${SYSTEM_PROMPT}\n\n${extraSystem}` : SYSTEM_PROMPT,
    messages: [...fitHistory(exchanges, budgetTokens), currentTurn(current.content, current.attachment)],
  }
}
