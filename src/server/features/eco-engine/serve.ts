// `npm run eco:serve`: the in-process engine alone, behind the OpenAI-compatible chat API the eco
// mode already speaks (ECO_BASE_URL), so many web nodes share a few inference machines
// (docs/decisions/062). The engine's own queue, prompt fitting and energy meter apply; each
// reply's metered energy goes back in its usage (`loris_energy`), which the web node stores as
// measured (chat/providers/eco.ts).
import { timingSafeEqual } from 'node:crypto'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { routePath } from 'hono/route'
import { streamSSE } from 'hono/streaming'
import { z } from 'zod'
import { countReply, countRequest } from '#server/lib/telemetry/metrics.ts'
import { metricsEndpoint } from '#server/lib/telemetry/metrics-route.ts'
import {
  type EcoEngine,
  EcoPromptTooLongError,
  type EcoResult,
  type EcoTurn,
  EcoUnavailableError,
} from './engine.ts'

/** Replies waiting beyond the engine's parallel ones before a new request is refused (503). */
export const MAX_WAITING = 16

const part = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.string() }).loose(),
])
const message = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(part), z.null()]).optional(),
})
export const chatRequestSchema = z.object({
  model: z.string().optional(),
  messages: z.array(message).min(1),
  stream: z.boolean().optional(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).optional(),
})

/** OpenAI's error body: the web node's SDK reads `error.message`. */
const apiError = (message: string, type: string, code: string | null = null) => ({
  error: { message, type, code, param: null },
})

const textOf = (content: z.infer<typeof message>['content']) =>
  typeof content === 'string'
    ? content
    : (content ?? [])
        .map((p) => ('text' in p && typeof p.text === 'string' ? p.text : '[attached file]'))
        .join('\n')

/** System text and turns, as the engine reads them (the last one the new user message). */
function toEngineInput(messages: z.infer<typeof message>[]): { system: string; turns: EcoTurn[] } | null {
  const system: string[] = []
  const turns: EcoTurn[] = []
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') system.push(textOf(m.content))
    else if (m.role === 'user' || m.role === 'assistant')
      turns.push({ role: m.role, text: textOf(m.content) })
  }
  return turns.at(-1)?.role === 'user' ? { system: system.join('\n\n'), turns } : null
}

const usageOf = (r: EcoResult) => ({
  prompt_tokens: r.inputTokens,
  completion_tokens: r.outputTokens,
  total_tokens: r.inputTokens + r.outputTokens,
  // Not OpenAI's: what this machine metered for the reply, stored by the web node as measured.
  loris_energy: { joules: r.energy.joules, method: r.energy.method },
})

export interface EcoServeOptions {
  engine: EcoEngine
  /** ECO_SERVE_API_KEY: when set, every request needs it as a bearer token. */
  apiKey?: string
  metricsToken?: string
}

export function ecoServeApp({ engine, apiKey, metricsToken }: EcoServeOptions) {
  const app = new Hono()
  app.use(async (c, next) => {
    const started = performance.now()
    await next()
    countRequest(routePath(c) || 'none', c.req.method, c.res.status, (performance.now() - started) / 1000)
  })
  app.get('/metrics', metricsEndpoint({ METRICS_TOKEN: metricsToken }))
  app.get('/health', (c) =>
    c.json({ status: engine.status().state === 'ready' ? 'ok' : engine.status().state }, 200),
  )
  app.use('/v1/*', async (c, next) => {
    if (!apiKey) return next()
    const given = Buffer.from(c.req.header('authorization')?.match(/^Bearer (.+)$/i)?.[1] ?? '')
    const wanted = Buffer.from(apiKey)
    if (given.length === wanted.length && timingSafeEqual(given, wanted)) return next()
    return c.json(
      apiError('Incorrect API key provided (ECO_SERVE_API_KEY).', 'invalid_request_error', 'invalid_api_key'),
      401,
    )
  })
  app.use(
    '/v1/*',
    bodyLimit({
      maxSize: 1024 * 1024,
      onError: (c) => c.json(apiError('The request is larger than 1 MB.', 'invalid_request_error'), 413),
    }),
  )
  app.get('/v1/models', (c) =>
    c.json(
      { object: 'list', data: [{ id: engine.displayName, object: 'model', created: 0, owned_by: 'loris' }] },
      200,
    ),
  )
  app.post('/v1/chat/completions', async (c) => {
    const parsed = chatRequestSchema.safeParse(await c.req.json().catch(() => undefined))
    if (!parsed.success)
      return c.json(
        apiError(`Invalid request: ${z.prettifyError(parsed.error)}`, 'invalid_request_error'),
        400,
      )
    const body = parsed.data
    const input = toEngineInput(body.messages)
    if (!input)
      return c.json(apiError('The last message must be from the user.', 'invalid_request_error'), 400)
    if (engine.queued >= MAX_WAITING)
      return c.json(apiError('The eco model is busy; try again shortly.', 'server_error', 'busy'), 503, {
        'retry-after': '5',
      })
    const id = `chatcmpl-${crypto.randomUUID()}`
    const created = Math.floor(Date.now() / 1000)
    const model = body.model ?? engine.displayName
    const maxTokens = body.max_completion_tokens ?? body.max_tokens
    // The service's own /metrics: replies, tokens and time to first token, as a web node counts.
    const started = performance.now()
    let firstAt: number | null = null
    const count = (result: EcoResult | null) =>
      countReply({
        provider: 'self',
        model,
        status: !result ? 'failed' : result.aborted ? 'interrupted' : 'complete',
        inputTokens: result?.inputTokens ?? null,
        outputTokens: result?.outputTokens ?? null,
        latencyMs: performance.now() - started,
        firstTokenMs: firstAt === null ? null : firstAt - started,
      })
    const failure = (err: unknown) => {
      count(null)
      if (err instanceof EcoPromptTooLongError)
        return {
          status: 400 as const,
          body: apiError(err.message, 'invalid_request_error', 'context_length_exceeded'),
        }
      if (err instanceof EcoUnavailableError)
        return { status: 503 as const, body: apiError(err.message, 'server_error', err.failure) }
      return { status: 500 as const, body: apiError('The eco model failed.', 'server_error') }
    }

    if (!body.stream) {
      let text = ''
      try {
        const result = await engine.generate({
          ...input,
          maxTokens,
          signal: c.req.raw.signal,
          onText: (t) => {
            firstAt ??= performance.now()
            text += t
          },
        })
        count(result)
        return c.json(
          {
            id,
            object: 'chat.completion',
            created,
            model,
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            usage: usageOf(result),
          },
          200,
        )
      } catch (err) {
        const f = failure(err)
        return c.json(f.body, f.status)
      }
    }

    // Streamed: refusals found before the first token (a prompt too long, a model that cannot
    // load) still answer with a status, as OpenAI does; the SSE answer starts at the first text.
    const controller = new AbortController()
    // A caller gone before the first text (the web node's Stop) frees its place at once.
    c.req.raw.signal.addEventListener('abort', () => controller.abort(), { once: true })
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      })
    const pending: string[] = []
    let flush: ((text: string) => void) | null = null
    let first: () => void = () => {}
    const firstText = new Promise<void>((resolve) => {
      first = resolve
    })
    const generation = engine.generate({
      ...input,
      maxTokens,
      signal: controller.signal,
      onText: (t) => {
        firstAt ??= performance.now()
        if (flush) flush(t)
        else pending.push(t)
        first()
      },
    })
    const settled = await Promise.race([
      firstText.then(() => null),
      generation.then(
        () => null,
        (err) => err,
      ),
    ])
    if (settled) {
      const f = failure(settled)
      return c.json(f.body, f.status)
    }
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => controller.abort())
      let writes = stream.writeSSE({ data: chunk({ role: 'assistant', content: '' }) })
      const write = (t: string) => {
        writes = writes.then(() => stream.writeSSE({ data: chunk({ content: t }) }))
      }
      for (const t of pending) write(t)
      flush = write
      try {
        const result = await generation
        count(result)
        await writes
        await stream.writeSSE({ data: chunk({}, 'stop') })
        if (body.stream_options?.include_usage !== false)
          await stream.writeSSE({
            data: JSON.stringify({
              id,
              object: 'chat.completion.chunk',
              created,
              model,
              choices: [],
              usage: usageOf(result),
            }),
          })
        await stream.writeSSE({ data: '[DONE]' })
      } catch (err) {
        await writes.catch(() => {})
        await stream.writeSSE({ data: JSON.stringify(failure(err).body) })
      }
    })
  })
  app.notFound((c) =>
    c.json(apiError(`No route ${c.req.method} ${c.req.path}`, 'invalid_request_error'), 404),
  )
  return app
}
