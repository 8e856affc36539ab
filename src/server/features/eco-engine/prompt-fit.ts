// Fits a conversation into the eco model's context before generating: counted with the model's
// own tokenizer and chat template, with room left for the reply. The history was budgeted by an
// estimate (chat/history.ts) and the new turn not at all; past the context, node-llama-cpp's
// context shift cut the prompt's start and answered the rest, charged as if read whole.
import type { ChatHistoryItem, ChatWrapper, Tokenizer } from 'node-llama-cpp'
import type { EcoTurn } from './engine.ts'

export interface FitInput {
  system: string
  /** The conversation, ending with the user's new message. */
  turns: EcoTurn[]
  replyTokens: number
  contextSize: number
  chatWrapper: ChatWrapper
  tokenizer: Tokenizer
}

export type FitResult =
  | { fits: true; history: ChatHistoryItem[]; prompt: string; tokens: number }
  /** Even with no history, the system prompt and the new turn leave no room for the reply. */
  | { fits: false; tokens: number; room: number }

/** Keeps the newest whole exchanges that fit beside the new turn and the reply. */
export async function fitPrompt(input: FitInput): Promise<FitResult> {
  const { appendUserMessageToChatHistory } = await import('node-llama-cpp')
  const earlier = input.turns.slice(0, -1)
  const prompt = input.turns.at(-1)?.text ?? ''
  // LlamaChat evaluates a prompt only with at least one token free after it, then the reply.
  const room = input.contextSize - input.replyTokens - 1
  const historyOf = (turns: EcoTurn[]): ChatHistoryItem[] => [
    { type: 'system', text: input.system },
    ...turns.map(
      (t): ChatHistoryItem =>
        t.role === 'user' ? { type: 'user', text: t.text } : { type: 'model', response: [t.text] },
    ),
  ]
  // What LlamaChatSession.prompt() evaluates: the history, the new user turn, an empty reply.
  const count = (history: ChatHistoryItem[]) =>
    input.chatWrapper
      .generateContextState({
        chatHistory: [...appendUserMessageToChatHistory(history, prompt), { type: 'model', response: [] }],
      })
      .contextText.tokenize(input.tokenizer).length

  // The new turn alone first: a very long one is refused after one count.
  const alone = count(historyOf([]))
  if (alone > room) return { fits: false, tokens: alone, room }
  for (let start = 0; start < earlier.length; ) {
    const history = historyOf(earlier.slice(start))
    const tokens = count(history)
    if (tokens <= room) return { fits: true, history, prompt, tokens }
    // Drop the oldest exchange whole: the history keeps starting with a user turn.
    start++
    while (earlier[start]?.role === 'assistant') start++
  }
  return { fits: true, history: historyOf([]), prompt, tokens: alone }
}
