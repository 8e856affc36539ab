// Loopback stand-in for the Gemini (v1beta), OpenAI (v1), Anthropic Messages (anthropic/v1) and
// Mistral chat (mistral/v1) wire formats, spoken to by the real AI SDK clients. Edit when an SDK upgrade changes a zod schema in node_modules/@ai-sdk/*/dist/index.mjs.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import {
  BodyTooLargeError,
  closeServer,
  headerRecord,
  listen,
  type MultipartSummary,
  parseMultipart,
  readBody,
  sendJson,
  sendText,
} from './http-helpers.ts'
import { breakConnection, openSse, type SseEncoder, sleep, streamSse, writeSse } from './sse.ts'

export type AiScenario = 'normal' | 'slow' | 'upstream-error' | 'error-mid-stream' | 'empty'
export type AiProvider = 'gemini' | 'openai' | 'anthropic' | 'mistral'

export interface RecordedRequest {
  provider: AiProvider
  method: string
  // Path with query string, e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`.
  path: string
  model: string | null
  // Parsed JSON, a multipart summary, the raw text of an unparsable body, or null (empty or too large).
  body: unknown
  headers: Record<string, string>
}

export interface AiStandIn {
  url: string
  geminiBaseUrl: string
  openaiBaseUrl: string
  anthropicBaseUrl: string
  mistralBaseUrl: string
  requests: RecordedRequest[]
  setScenario(scenario: AiScenario): void
  setTranscript(text: string): void
  // Overrides the pause between streamed chunks for every scenario, 'slow' included.
  setChunkDelayMs(ms: number): void
  // Stamps every streamed chunk with the moment it is sent (sse.ts `chunkStamp`), for the load bench.
  setChunkStamps(on: boolean): void
  // Words per streamed chunk (3 by default); the load bench streams one, a token's worth of text.
  setWordsPerChunk(n: number): void
  // Back to a fresh state (normal scenario, default transcript and delays, no recorded requests).
  reset(): void
  /** TCP connections accepted since the stand-in started (tests count reconnects). */
  connections(): number
  /** Requests whose headers came, whole or not (an early call holds its last byte), since the last reset. */
  begun(): number
  /** Requests whose caller went away before their reply ended (a stopped call), since the last reset. */
  abandoned(): number
  close(): Promise<void>
}

export const aiScenarios = ['normal', 'slow', 'upstream-error', 'error-mid-stream', 'empty'] as const
const maxBodyBytes = 50 * 1024 * 1024
const defaultDelayMs = 5
const slowDelayMs = 400
// Enough chunks that a slow reply lasts ~5 s, long enough for a browser test to reload mid-stream.
const minSlowChunks = 12
const defaultWordsPerChunk = 3
const defaultTranscript = 'go forward ten meters'
const slowPadding =
  'This reply streams slowly on purpose so that a test can interrupt it while it is arriving.'
const markerPattern = /\[\[scenario:([a-z-]+)\]\]/
// `[[tool:web_search {"query":"lorises"}]]` in the person's message: when the request offers
// tools, the model calls each marked tool in turn (one per request), then answers citing [1] with
// the first line of every result it was given.
const toolMarkerPattern = /\[\[tool:([A-Za-z0-9_-]+)(?: (\{.*?\}))?\]\]/g

interface State {
  scenario: AiScenario
  transcript: string
  delayMs: number | undefined
  stamps: boolean
  wordsPerChunk: number
  requests: RecordedRequest[]
  begun: number
  abandoned: number
}

// ---- The provider-neutral view of a request and the reply planned for it ----

interface Attachment {
  mediaType: string
  bytes?: number
  source?: string
}
interface Turn {
  fromUser: boolean
  texts: string[]
  attachments: Attachment[]
  /** What tools answered, sent back to the model. */
  toolResults: string[]
}
interface Conversation {
  turns: Turn[]
  system: boolean
  textChars: number
  /** The request offers the model tools to call. */
  offersTools: boolean
}
interface ToolCall {
  name: string
  args: unknown
}
interface Reply {
  /** Instead of text: the model asks for this tool. */
  toolCall?: ToolCall
  scenario: AiScenario
  text: string
  chunks: string[]
  delayMs: number
  inputTokens: number
  outputTokens: number
}

const newTurn = (fromUser: boolean): Turn => ({ fromUser, texts: [], attachments: [], toolResults: [] })
const tokens = (chars: number) => Math.ceil(chars / 4)
const base64Bytes = (data: string) => Buffer.from(data, 'base64').length
const lastUserTurn = (c: Conversation) => c.turns.findLast((turn) => turn.fromUser)

function conversation(turns: Turn[], systemTexts: string[], offersTools = false): Conversation {
  const texts = [...systemTexts, ...turns.flatMap((turn) => [...turn.texts, ...turn.toolResults])]
  return {
    turns,
    system: systemTexts.length > 0,
    textChars: texts.reduce((n, text) => n + text.length, 0),
    offersTools,
  }
}

/** The tool the model asks for next, or the answer once every marked tool has answered. */
function planTools(c: Conversation): { call?: ToolCall; answer?: string } {
  const last = lastUserTurn(c)
  if (!last || !c.offersTools) return {}
  const marked = [...last.texts.join('\n').matchAll(toolMarkerPattern)].map((m) => ({
    name: m[1] as string,
    args: m[2] ? (JSON.parse(m[2]) as unknown) : {},
  }))
  if (marked.length === 0) return {}
  const results = c.turns.slice(c.turns.lastIndexOf(last) + 1).flatMap((turn) => turn.toolResults)
  const next = marked[results.length]
  if (next) return { call: next }
  const lines = results.map((r) => (r.split('\n')[0] ?? '').slice(0, 200))
  return { answer: `Here is what I found [1].\nTool results: ${lines.join(' | ')}` }
}

function fromUrl(url: string, fallbackType: string): Attachment {
  const match = /^data:([^;,]*)(;base64)?,/.exec(url)
  if (!match) return { mediaType: fallbackType, source: url }
  const payload = url.slice(match[0].length)
  const bytes = match[2] ? base64Bytes(payload) : Buffer.byteLength(decodeURIComponent(payload))
  return { mediaType: match[1] || fallbackType, bytes }
}

function describe(attachment: Attachment): string {
  const { mediaType, bytes, source } = attachment
  const kind = mediaType.startsWith('image/') ? 'image' : mediaType.startsWith('audio/') ? 'audio' : 'file'
  return `[${kind} ${mediaType} ${bytes === undefined ? source : `${bytes} bytes`}]`
}

// Deterministic and revealing: tests assert on what the model was actually sent.
function echo(c: Conversation): string {
  const last = lastUserTurn(c)
  const lines = [`Echo: ${last?.texts.join('\n') ?? ''}`]
  if (last?.attachments.length) lines.push(last.attachments.map(describe).join(' '))
  lines.push(`(history: ${c.turns.length} messages, system: ${c.system ? 'yes' : 'no'})`)
  return lines.join('\n')
}

function chunkText(text: string, wordsPerChunk: number): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? []
  const chunks: string[] = []
  for (let i = 0; i < words.length; i += wordsPerChunk)
    chunks.push(words.slice(i, i + wordsPerChunk).join(''))
  return chunks
}

function scenarioFor(state: State, text: string | undefined): AiScenario {
  const marked = text?.match(markerPattern)?.[1]
  return aiScenarios.find((scenario) => scenario === marked) ?? state.scenario
}

function replyFor(state: State, scenario: AiScenario, text: string, inputTokens: number): Reply {
  const delayMs = state.delayMs ?? (scenario === 'slow' ? slowDelayMs : defaultDelayMs)
  return {
    scenario,
    text,
    chunks: chunkText(text, state.wordsPerChunk),
    delayMs,
    inputTokens,
    outputTokens: tokens(text.length),
  }
}

// A non-streaming request whose last user turn carries audio is a transcription job (Gemini has no
// dedicated endpoint for it), so it answers with the configured transcript instead of an echo.
function planReply(state: State, c: Conversation, streaming: boolean): Reply {
  const last = lastUserTurn(c)
  const scenario = scenarioFor(state, last?.texts.join('\n'))
  const transcribing = !streaming && last?.attachments.some((a) => a.mediaType.startsWith('audio/'))
  const tools = planTools(c)
  if (tools.call) return { ...replyFor(state, scenario, '', tokens(c.textChars)), toolCall: tools.call }
  let text = scenario === 'empty' ? '' : transcribing ? state.transcript : (tools.answer ?? echo(c))
  while (scenario === 'slow' && streaming && chunkText(text, state.wordsPerChunk).length < minSlowChunks)
    text += `\n${slowPadding}`
  return replyFor(state, scenario, text, tokens(c.textChars))
}

function planTranscript(state: State, prompt: string | undefined): Reply {
  const scenario = scenarioFor(state, prompt)
  return replyFor(state, scenario, scenario === 'empty' ? '' : state.transcript, tokens(prompt?.length ?? 0))
}

// ---- Delivery shared by every model endpoint: scenarios decide how the rendered reply goes out ----

type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'multipart'; form: MultipartSummary }
  | { kind: 'invalid'; text: string }
  | { kind: 'empty' }

interface Context {
  state: State
  res: ServerResponse
  url: URL
  body: Body
  provider: AiProvider
  model: string
}
interface Rendered {
  contentType: string
  text: string
}

const json = (body: unknown): Rendered => ({ contentType: 'application/json', text: JSON.stringify(body) })
const googleStatus: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  404: 'NOT_FOUND',
  413: 'INVALID_ARGUMENT',
  500: 'INTERNAL',
}
const openaiCode: Record<number, string> = {
  401: 'invalid_api_key',
  404: 'unknown_url',
  413: 'request_too_large',
  500: 'internal_error',
}

// The error bodies the SDKs' failedResponseHandlers parse: Google `{error:{code,message,status}}`,
// OpenAI `{error:{message,type,param,code}}`.
function sendError(res: ServerResponse, provider: AiProvider, status: number, message: string): void {
  const body =
    provider === 'gemini'
      ? { error: { code: status, message, status: googleStatus[status] ?? 'UNKNOWN' } }
      : provider === 'anthropic'
        ? { type: 'error', error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message } }
        : {
            error: {
              message,
              type: status >= 500 ? 'server_error' : 'invalid_request_error',
              param: null,
              code: openaiCode[status] ?? null,
            },
          }
  sendJson(res, status, body)
}

async function deliver(ctx: Context, reply: Reply, render: { stream?: SseEncoder; whole: () => Rendered }) {
  const { res } = ctx
  if (reply.scenario === 'upstream-error') {
    return sendError(res, ctx.provider, 500, 'The stand-in upstream failed (scenario upstream-error).')
  }
  const breakAfter = reply.scenario === 'error-mid-stream' ? 2 : undefined
  if (render.stream)
    return streamSse(res, render.stream, {
      chunks: reply.chunks,
      delayMs: reply.delayMs,
      breakAfter,
      stamp: ctx.state.stamps,
    })
  // A whole answer still takes as long as generating it would.
  const floor = reply.scenario === 'slow' ? minSlowChunks : 1
  await sleep(reply.delayMs * Math.max(reply.chunks.length, floor))
  const out = render.whole()
  if (breakAfter === undefined) return sendText(res, 200, out.text, out.contentType)
  res.writeHead(200, { 'content-type': out.contentType })
  res.write(out.text.slice(0, out.text.length / 2), () => breakConnection(res))
}

function jsonObject<T>(body: Body): Partial<T> {
  const value = body.kind === 'json' ? body.value : undefined
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Partial<T>) : {}
}

// ---- Gemini: https://ai.google.dev/api/generate-content ----

interface GeminiPart {
  text?: unknown
  functionResponse?: { name?: string; response?: unknown }
  inlineData?: { mimeType?: string; data?: string }
  fileData?: { mimeType?: string; fileUri?: string }
}
interface GeminiContent {
  role?: string
  parts?: GeminiPart[]
}
interface GeminiRequest {
  contents: GeminiContent[]
  systemInstruction: { parts?: GeminiPart[] }
  tools: { functionDeclarations?: unknown[] }[]
}

function geminiTurn(content: GeminiContent): Turn {
  const parts = content.parts ?? []
  // Tool results come back in a 'user' content, but the person did not write them.
  const fromTool = parts.some((part) => part.functionResponse)
  const turn = newTurn(content.role !== 'model' && !fromTool)
  for (const part of parts) {
    if (part.functionResponse) turn.toolResults.push(JSON.stringify(part.functionResponse.response))
    else if (typeof part.text === 'string') turn.texts.push(part.text)
    else if (part.inlineData) {
      const { mimeType = 'application/octet-stream', data = '' } = part.inlineData
      turn.attachments.push({ mediaType: mimeType, bytes: base64Bytes(data) })
    } else if (part.fileData) {
      const { mimeType = 'application/octet-stream', fileUri } = part.fileData
      turn.attachments.push({ mediaType: mimeType, source: fileUri })
    }
  }
  return turn
}

function geminiConversation(request: Partial<GeminiRequest>): Conversation {
  const turns = (Array.isArray(request.contents) ? request.contents : []).map(geminiTurn)
  const offersTools =
    Array.isArray(request.tools) && request.tools.some((t) => (t.functionDeclarations?.length ?? 0) > 0)
  return conversation(turns, geminiTurn({ parts: request.systemInstruction?.parts ?? [] }).texts, offersTools)
}

function geminiBody(ctx: Context, id: string, reply: Reply, text: string, final: boolean) {
  const usage = {
    promptTokenCount: reply.inputTokens,
    candidatesTokenCount: reply.outputTokens,
    totalTokenCount: reply.inputTokens + reply.outputTokens,
  }
  const parts = reply.toolCall
    ? [{ functionCall: { name: reply.toolCall.name, args: reply.toolCall.args } }]
    : [{ text }]
  return {
    candidates: [{ content: { parts, role: 'model' }, index: 0, ...(final && { finishReason: 'STOP' }) }],
    ...(final && { usageMetadata: usage }),
    modelVersion: ctx.model,
    responseId: id,
  }
}

async function geminiGenerate(ctx: Context) {
  const streaming = ctx.url.pathname.endsWith(':streamGenerateContent')
  const reply = planReply(ctx.state, geminiConversation(jsonObject<GeminiRequest>(ctx.body)), streaming)
  const id = randomUUID()
  const stream: SseEncoder = {
    start: () => [],
    delta: (text, isLast) => [geminiBody(ctx, id, reply, text, isLast)],
    end: () => [],
  }
  if (reply.toolCall && streaming) return sendToolCall(ctx, [geminiBody(ctx, id, reply, '', true)])
  await deliver(ctx, reply, {
    stream: streaming ? stream : undefined,
    whole: () => json(geminiBody(ctx, id, reply, reply.text, true)),
  })
}

// google.transcription() posts `{ model, input: [{ type: 'audio', data, mime_type }] }` here.
async function geminiInteraction(ctx: Context) {
  const input = jsonObject<{ input: { type?: string }[] }>(ctx.body).input
  if (!Array.isArray(input) || !input.some((item) => item.type === 'audio')) {
    return sendError(ctx.res, 'gemini', 400, 'The stand-in only supports audio transcription interactions.')
  }
  const reply = planTranscript(ctx.state, undefined)
  const body = {
    id: randomUUID(),
    status: 'completed',
    steps: [{ type: 'model_output', content: [{ type: 'text', text: reply.text }] }],
  }
  await deliver(ctx, reply, { whole: () => json(body) })
}

// ---- OpenAI: https://platform.openai.com/docs/api-reference/chat ----

interface OpenAiPart {
  type?: string
  text?: string
  /** OpenAI sends `{ url }`, Mistral the URL itself. */
  image_url?: { url?: string } | string
  input_audio?: { data?: string; format?: string }
  file?: { file_data?: string; file_id?: string }
}
interface OpenAiMessage {
  role?: string
  content?: string | OpenAiPart[] | null
}
interface OpenAiRequest {
  tools: unknown[]
  messages: OpenAiMessage[]
  stream: boolean
  stream_options: { include_usage?: boolean }
}

function addOpenAiPart(turn: Turn, part: OpenAiPart): void {
  if (part.type === 'text' && typeof part.text === 'string') turn.texts.push(part.text)
  if (part.type === 'image_url') {
    const url = typeof part.image_url === 'string' ? part.image_url : (part.image_url?.url ?? '')
    turn.attachments.push(fromUrl(url, 'image/*'))
  }
  if (part.type === 'input_audio') {
    const format = part.input_audio?.format === 'mp3' ? 'mpeg' : (part.input_audio?.format ?? 'wav')
    turn.attachments.push({ mediaType: `audio/${format}`, bytes: base64Bytes(part.input_audio?.data ?? '') })
  }
  if (part.type === 'file') {
    const { file_data: data, file_id: id } = part.file ?? {}
    turn.attachments.push(
      data ? fromUrl(data, 'application/octet-stream') : { mediaType: 'file', source: id },
    )
  }
}

function openaiConversation(request: Partial<OpenAiRequest>): Conversation {
  const system: string[] = []
  const turns: Turn[] = []
  for (const message of Array.isArray(request.messages) ? request.messages : []) {
    const turn = newTurn(message.role === 'user')
    if (message.role === 'tool') turn.toolResults.push(String(message.content ?? ''))
    else if (typeof message.content === 'string') turn.texts.push(message.content)
    else for (const part of message.content ?? []) addOpenAiPart(turn, part)
    if (message.role === 'system' || message.role === 'developer') system.push(...turn.texts)
    else turns.push(turn)
  }
  return conversation(turns, system, Array.isArray(request.tools) && request.tools.length > 0)
}

function openaiUsage(reply: Reply) {
  const total = reply.inputTokens + reply.outputTokens
  return { prompt_tokens: reply.inputTokens, completion_tokens: reply.outputTokens, total_tokens: total }
}

function openaiEncoder(ctx: Context, reply: Reply, includeUsage: boolean): SseEncoder {
  const base = {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion.chunk',
    created: now(),
    model: ctx.model,
  }
  const chunk = (delta: object, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  })
  return {
    start: () => [chunk({ role: 'assistant', content: '' })],
    delta: (content) => (content ? [chunk({ content })] : []),
    // Usage arrives in its own choice-less chunk, and only when asked for (stream_options.include_usage).
    end: () => [
      chunk({}, 'stop'),
      ...(includeUsage ? [{ ...base, choices: [], usage: openaiUsage(reply) }] : []),
      '[DONE]',
    ],
  }
}

async function openaiChat(ctx: Context) {
  const request = jsonObject<OpenAiRequest>(ctx.body)
  const streaming = request.stream === true
  const reply = planReply(ctx.state, openaiConversation(request), streaming)
  if (reply.toolCall && streaming) {
    const base = {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion.chunk',
      created: now(),
      model: ctx.model,
    }
    const call = {
      index: 0,
      id: `call_${randomUUID().slice(0, 8)}`,
      type: 'function',
      function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.args) },
    }
    const choice = (delta: object, finish: string | null) => ({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    })
    return sendToolCall(ctx, [
      choice({ role: 'assistant', content: null, tool_calls: [call] }, null),
      choice({}, 'tool_calls'),
      ...(request.stream_options?.include_usage ? [{ ...base, choices: [], usage: openaiUsage(reply) }] : []),
      '[DONE]',
    ])
  }
  const whole = {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: now(),
    model: ctx.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.text, refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: openaiUsage(reply),
  }
  await deliver(ctx, reply, {
    stream: streaming ? openaiEncoder(ctx, reply, request.stream_options?.include_usage === true) : undefined,
    whole: () => json(whole),
  })
}

/** A model's request for a tool, streamed as the provider sends one. */
async function sendToolCall(ctx: Context, events: unknown[]) {
  openSse(ctx.res)
  for (const event of events) await writeSse(ctx.res, event)
  ctx.res.end()
}

// ---- Mistral: https://docs.mistral.ai/api/#tag/chat ----

// Mistral speaks OpenAI's chat format with its own chunks: usage always comes on the last one.
async function mistralChat(ctx: Context) {
  const request = jsonObject<OpenAiRequest>(ctx.body)
  const streaming = request.stream === true
  const reply = planReply(ctx.state, openaiConversation(request), streaming)
  const id = randomUUID().replaceAll('-', '')
  const chunk = (delta: object, finish: string | null = null, usage = false) => ({
    id,
    object: 'chat.completion.chunk',
    created: now(),
    model: ctx.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage && { usage: openaiUsage(reply) }),
  })
  const stream: SseEncoder = {
    start: () => [chunk({ role: 'assistant', content: '' })],
    delta: (content) => (content ? [chunk({ content })] : []),
    end: () => [chunk({ content: '' }, 'stop', true), '[DONE]'],
  }
  const whole = {
    id,
    object: 'chat.completion',
    created: now(),
    model: ctx.model,
    choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
    usage: openaiUsage(reply),
  }
  await deliver(ctx, reply, { stream: streaming ? stream : undefined, whole: () => json(whole) })
}

// ---- Anthropic: https://docs.anthropic.com/en/api/messages-streaming ----

interface AnthropicBlock {
  type?: string
  text?: string
  source?: { type?: string; media_type?: string; data?: string; url?: string }
}
interface AnthropicRequest {
  system: string | AnthropicBlock[]
  messages: { role?: string; content?: string | AnthropicBlock[] }[]
  stream: boolean
}

function anthropicConversation(request: Partial<AnthropicRequest>): Conversation {
  const turns: Turn[] = []
  for (const message of Array.isArray(request.messages) ? request.messages : []) {
    const turn = newTurn(message.role === 'user')
    if (typeof message.content === 'string') turn.texts.push(message.content)
    else
      for (const block of message.content ?? []) {
        if (block.type === 'text' && typeof block.text === 'string') turn.texts.push(block.text)
        else if (block.type === 'image' || block.type === 'document') {
          const { media_type: mediaType = 'application/octet-stream', data, url } = block.source ?? {}
          turn.attachments.push(data ? { mediaType, bytes: base64Bytes(data) } : { mediaType, source: url })
        }
      }
    turns.push(turn)
  }
  const system =
    typeof request.system === 'string'
      ? [request.system]
      : (request.system ?? []).flatMap((b) => (typeof b.text === 'string' ? [b.text] : []))
  return conversation(turns, system)
}

async function anthropicMessages(ctx: Context) {
  const request = jsonObject<AnthropicRequest>(ctx.body)
  const streaming = request.stream === true
  const reply = planReply(ctx.state, anthropicConversation(request), streaming)
  const id = `msg_${randomUUID().replaceAll('-', '')}`
  const message = { id, type: 'message', role: 'assistant', model: ctx.model, stop_sequence: null }
  const stream: SseEncoder = {
    start: () => [
      {
        type: 'message_start',
        message: {
          ...message,
          content: [],
          stop_reason: null,
          usage: { input_tokens: reply.inputTokens, output_tokens: 1 },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ],
    delta: (text) =>
      text ? [{ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }] : [],
    end: () => [
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: reply.outputTokens },
      },
      { type: 'message_stop' },
    ],
  }
  const whole = {
    ...message,
    content: [{ type: 'text', text: reply.text }],
    stop_reason: 'end_turn',
    usage: { input_tokens: reply.inputTokens, output_tokens: reply.outputTokens },
  }
  await deliver(ctx, reply, { stream: streaming ? stream : undefined, whole: () => json(whole) })
}

// The SDK asks for verbose_json (whisper) or json (gpt-4o-*-transcribe) when provider options are set.
function transcriptionBody(format: string | undefined, reply: Reply): Rendered | undefined {
  const { text } = reply
  const duration = Math.max(1, text.split(/\s+/).length) * 0.4
  if (format === undefined || format === 'json')
    return json({ text, usage: { type: 'duration', seconds: duration } })
  if (format === 'text') return { contentType: 'text/plain', text }
  if (format !== 'verbose_json') return undefined
  const segment = { id: 0, seek: 0, start: 0, end: duration, text, tokens: [], temperature: 0 }
  const quality = { avg_logprob: -0.1, compression_ratio: 1, no_speech_prob: 0 }
  return json({
    task: 'transcribe',
    language: 'english',
    duration,
    text,
    segments: [{ ...segment, ...quality }],
  })
}

async function openaiTranscription(ctx: Context) {
  const form = ctx.body.kind === 'multipart' ? ctx.body.form : undefined
  if (!form?.fields.model || !form.files.some((file) => file.field === 'file')) {
    return sendError(ctx.res, 'openai', 400, 'Expected multipart/form-data with `file` and `model`.')
  }
  const reply = planTranscript(ctx.state, form.fields.prompt)
  const rendered = transcriptionBody(form.fields.response_format, reply)
  if (!rendered)
    return sendError(ctx.res, 'openai', 400, 'The stand-in supports json, verbose_json and text.')
  await deliver(ctx, reply, { whole: () => rendered })
}

const now = () => Math.floor(Date.now() / 1000)

function listModels(ctx: Context) {
  if (ctx.provider === 'openai') {
    const ids = ['gpt-3.5-turbo', 'gpt-4o-mini', 'whisper-1', 'loris-eco']
    const data = ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'stand-in' }))
    return sendJson(ctx.res, 200, { object: 'list', data })
  }
  const methods = ['generateContent', 'streamGenerateContent']
  const ids = ['gemini-2.5-flash', 'gemini-2.5-pro']
  const models = ids.map((id) => ({ name: `models/${id}`, supportedGenerationMethods: methods }))
  sendJson(ctx.res, 200, { models })
}

// ---- Routing ----

const geminiModelPath = /^\/v1beta\/(.+):(generateContent|streamGenerateContent)$/

function route(method: string, path: string): ((ctx: Context) => unknown) | undefined {
  if (method === 'GET' && (path === '/v1/models' || path === '/v1beta/models')) return listModels
  if (method !== 'POST') return undefined
  if (path === '/v1/chat/completions') return openaiChat
  if (path === '/mistral/v1/chat/completions') return mistralChat
  if (path === '/anthropic/v1/messages') return anthropicMessages
  if (path === '/v1/audio/transcriptions') return openaiTranscription
  if (path === '/v1beta/interactions') return geminiInteraction
  if (geminiModelPath.test(path)) return geminiGenerate
  return undefined
}

async function parseBody(req: IncomingMessage): Promise<Body> {
  const raw = await readBody(req, maxBodyBytes)
  const contentType = req.headers['content-type'] ?? ''
  if (contentType.startsWith('multipart/form-data'))
    return { kind: 'multipart', form: await parseMultipart(raw, contentType) }
  if (raw.length === 0) return { kind: 'empty' }
  try {
    return { kind: 'json', value: JSON.parse(raw.toString('utf8')) }
  } catch {
    return { kind: 'invalid', text: raw.toString('utf8') }
  }
}

function recordedBody(body: Body | undefined): unknown {
  if (body?.kind === 'json') return body.value
  if (body?.kind === 'multipart') return body.form
  return body?.kind === 'invalid' ? body.text : null
}

function modelOf(path: string, body: Body | undefined): string | null {
  const fromPath = geminiModelPath.exec(path)?.[1]
  if (fromPath) return fromPath.replace(/^models\//, '')
  const model =
    body?.kind === 'multipart'
      ? body.form.fields.model
      : jsonObject<{ model: unknown }>(body ?? { kind: 'empty' }).model
  return typeof model === 'string' ? model : null
}

// Real providers reject keyless calls, so a stand-in that accepted them would hide a missing key.
function authorized(provider: AiProvider, req: IncomingMessage, url: URL): boolean {
  if (provider === 'openai' || provider === 'mistral')
    return /^Bearer \S+/.test(req.headers.authorization ?? '')
  if (provider === 'anthropic') return Boolean(req.headers['x-api-key'])
  return Boolean(req.headers['x-goog-api-key'] || url.searchParams.get('key'))
}

function providerOf(path: string): AiProvider | undefined {
  if (path.startsWith('/v1beta/')) return 'gemini'
  if (path.startsWith('/v1/')) return 'openai'
  if (path.startsWith('/anthropic/v1/')) return 'anthropic'
  if (path.startsWith('/mistral/v1/')) return 'mistral'
  return undefined
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://stand-in')
  const method = req.method ?? 'GET'
  const provider = providerOf(url.pathname)
  if (!provider) return sendJson(res, 404, { error: { message: `No stand-in at ${url.pathname}` } })
  const body = await parseBody(req).catch((error: unknown) => {
    if (error instanceof BodyTooLargeError) return undefined
    throw error
  })
  const model = modelOf(url.pathname, body)
  state.requests.push({
    provider,
    method,
    path: req.url ?? '/',
    model,
    body: recordedBody(body),
    headers: headerRecord(req),
  })
  if (!body) {
    res.setHeader('connection', 'close')
    return sendError(res, provider, 413, `Request body exceeds ${maxBodyBytes} bytes.`)
  }
  if (!authorized(provider, req, url)) return sendError(res, provider, 401, 'Missing or invalid API key.')
  const handler = route(method, url.pathname)
  if (!handler) return sendError(res, provider, 404, `Unknown request URL: ${method} ${url.pathname}`)
  if (body.kind === 'invalid') return sendError(res, provider, 400, 'Request body is not valid JSON.')
  await handler({ state, res, url, body, provider, model: model ?? 'unknown' })
}

/**
 * Environment that serves the providers beside the modes from this stand-in: Gemini, Anthropic,
 * Mistral and an OpenAI-compatible endpoint named ollama (qwen2.5:7b), the eco engine off.
 */
export function catalogueEnv(ai: AiStandIn): Record<string, string> {
  return {
    GEMINI_API_KEY: 'test',
    GEMINI_BASE_URL: ai.geminiBaseUrl,
    ANTHROPIC_API_KEY: 'test',
    ANTHROPIC_BASE_URL: ai.anthropicBaseUrl,
    MISTRAL_API_KEY: 'test',
    MISTRAL_BASE_URL: ai.mistralBaseUrl,
    OPENAI_COMPATIBLE_ENDPOINTS: JSON.stringify([
      { name: 'ollama', baseURL: ai.openaiBaseUrl, apiKey: 'test', models: ['qwen2.5:7b'] },
    ]),
    ECO_ENGINE: 'off',
  }
}

export async function startAiStandIn(opts: { port?: number; host?: string } = {}): Promise<AiStandIn> {
  const host = opts.host ?? '127.0.0.1'
  const state: State = {
    scenario: 'normal',
    transcript: defaultTranscript,
    delayMs: undefined,
    stamps: false,
    wordsPerChunk: defaultWordsPerChunk,
    requests: [],
    begun: 0,
    abandoned: 0,
  }
  const server = createServer((req, res) => {
    state.begun++
    res.on('close', () => {
      if (!res.writableFinished) state.abandoned++
    })
    handle(state, req, res).catch((error: unknown) => {
      // A request stopped before its body was whole (an early call not taken) is not a failure.
      if (!req.complete && !res.headersSent) return
      console.error('AI stand-in failed to answer', req.method, req.url, error)
      if (res.headersSent) breakConnection(res)
      else sendJson(res, 500, { error: { message: 'stand-in failure' } })
    })
  })
  let connections = 0
  server.on('connection', () => connections++)
  const url = await listen(server, opts.port ?? 0, host)
  return {
    url,
    geminiBaseUrl: `${url}/v1beta`,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: `${url}/anthropic/v1`,
    mistralBaseUrl: `${url}/mistral/v1`,
    requests: state.requests,
    setScenario: (scenario) => {
      state.scenario = scenario
    },
    setTranscript: (text) => {
      state.transcript = text
    },
    setChunkDelayMs: (ms) => {
      state.delayMs = ms
    },
    setChunkStamps: (on) => {
      state.stamps = on
    },
    setWordsPerChunk: (n) => {
      state.wordsPerChunk = Math.max(1, Math.floor(n))
    },
    reset: () => {
      Object.assign(state, {
        scenario: 'normal',
        transcript: defaultTranscript,
        delayMs: undefined,
        stamps: false,
        wordsPerChunk: defaultWordsPerChunk,
      })
      state.requests.length = 0
      state.begun = 0
      state.abandoned = 0
    },
    connections: () => connections,
    begun: () => state.begun,
    abandoned: () => state.abandoned,
    close: () => closeServer(server),
  }
}

// Standalone: `node --import tsx tests/stand-ins/ai-providers.ts --port 4010 [--host h] [--scenario slow]`.
async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string' },
      scenario: { type: 'string' },
    },
  })
  const standIn = await startAiStandIn({ port: Number(values.port), host: values.host })
  const scenario = aiScenarios.find((s) => s === values.scenario)
  if (scenario) standIn.setScenario(scenario)
  console.info(`AI stand-in on ${standIn.url} (scenario ${scenario ?? 'normal'})`)
  console.info(`  Gemini baseURL: ${standIn.geminiBaseUrl}`)
  console.info(`  OpenAI baseURL: ${standIn.openaiBaseUrl}`)
  console.info(`  Anthropic baseURL: ${standIn.anthropicBaseUrl}`)
  console.info(`  Mistral baseURL: ${standIn.mistralBaseUrl}`)
  const stop = () => void standIn.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
}
