// How people call the models that answer (a reply's footer names its model). Ids come
// from the server's configuration, so unknown ones are still shown, tidied up.
import type { ReplyFamily } from './models.ts'

const KNOWN: [RegExp, string][] = [
  [/^gemini-2\.5-pro/i, 'Gemini 2.5 Pro'],
  [/^gemini-2\.5-flash-lite/i, 'Gemini 2.5 Flash Lite'],
  [/^gemini-2\.5-flash/i, 'Gemini 2.5 Flash'],
  [/^gemini-2\.0-flash-lite/i, 'Gemini 2.0 Flash Lite'],
  [/^gemini-2\.0-flash/i, 'Gemini 2.0 Flash'],
  [/^gpt-3\.5-turbo/i, 'GPT-3.5 Turbo'],
  [/^gpt-4o-mini/i, 'GPT-4o mini'],
  [/^gpt-4o/i, 'GPT-4o'],
  [/^gpt-4\.1-mini/i, 'GPT-4.1 mini'],
  [/^gpt-4\.1/i, 'GPT-4.1'],
  // ChatGPT's own slugs, as its exports name the model of each reply (metadata.model_slug).
  [/^gpt-4(?![o.\d])/i, 'GPT-4'],
  [/^text-davinci-002-render/i, 'GPT-3.5'],
  [/^claude-haiku-4-5/i, 'Claude Haiku 4.5'],
  [/^claude-sonnet-4-5/i, 'Claude Sonnet 4.5'],
  [/^claude-opus-4-1/i, 'Claude Opus 4.1'],
  [/^mistral-small/i, 'Mistral Small'],
  [/^mistral-medium/i, 'Mistral Medium'],
  [/^mistral-large/i, 'Mistral Large'],
  [/^ministral-8b/i, 'Ministral 8B'],
  [/^ministral-3b/i, 'Ministral 3B'],
  [/smollm2[-_ ]?360m/i, 'SmolLM2 360M'],
  [/smollm2[-_ ]?135m/i, 'SmolLM2 135M'],
  [/smollm2[-_ ]?1\.7b/i, 'SmolLM2 1.7B'],
  [/qwen2\.5[-_ ]?0\.5b/i, 'Qwen2.5 0.5B'],
  [/llama[-_ ]?3\.2[-_ ]?1b/i, 'Llama 3.2 1B'],
]

/** A model id as people read it: 'gemini-2.5-flash-lite' → 'Gemini 2.5 Flash Lite'. */
export function modelName(modelId: string): string {
  // A path or repository (eco models are often files) names the model by its last part; an
  // Ollama tag ('qwen2.5:0.5b') is part of the name.
  const id = (modelId.split(/[\\/]/).filter(Boolean).at(-1) ?? modelId).replace(':', '-')
  for (const [pattern, name] of KNOWN) if (pattern.test(id)) return name
  return id
    .replace(/\.gguf$/i, '')
    .split(/[-_]+/)
    .filter(Boolean)
    .map((w) => (/^[a-z]/.test(w) ? w[0]?.toUpperCase() + w.slice(1) : w))
    .join(' ')
}

/** The footer's name: the eco mode says it is Loris eco and which model runs it. */
export function replyModelName(chatModel: ReplyFamily, modelId: string | null | undefined): string | null {
  if (!modelId) return null
  const name = modelName(modelId)
  return chatModel === 'loris' ? `Loris eco (${name})` : name
}
