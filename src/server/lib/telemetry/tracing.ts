// OpenTelemetry traces, sent over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set
// (docs/decisions/061). main.ts imports this file only then: without the variable no OpenTelemetry
// module is loaded and no request pays for a span. One trace per request: the request's span,
// a span per database statement, and the model call's span with the GenAI semantic conventions'
// attributes, from the call to the end of the model's stream, with a span per tool call under it.
import type { Span } from '@opentelemetry/api'
import type { MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import type { Database } from '#server/db/client.ts'
import type { Env } from '#server/env.ts'
import { type ModelCallSpan, traceModelCalls } from './spans.ts'

export interface Tracing {
  /** The request's span around everything the request does (app.ts, first middleware). */
  middleware: MiddlewareHandler
  /** Spans for the database's statements from now on. */
  traceDatabase(database: Database): void
  /** Sends what is buffered (tests, shutdown). */
  flush(): Promise<void>
  shutdown(): Promise<void>
}

export async function startTracing(
  env: Pick<Env, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME'>,
): Promise<Tracing> {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT
  if (!endpoint) throw new Error('startTracing needs OTEL_EXPORTER_OTLP_ENDPOINT')
  const [api, { NodeSDK }, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ])
  const { trace, context, propagation, SpanKind, SpanStatusCode } = api
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME,
    traceExporter: new OTLPTraceExporter({
      url: new URL('v1/traces', `${endpoint.replace(/\/+$/, '')}/`).href,
    }),
    // Spans are made by the code below, not by patching modules (the server is one bundle).
    instrumentations: [],
    // Traces only: no log or metric exporter is set up (metrics are GET /metrics).
    logRecordProcessors: [],
  })
  sdk.start()
  const tracer = trace.getTracer('loris')
  const errorType = (err: unknown) =>
    err instanceof Error ? ((err as { code?: unknown }).code ?? err.name).toString() : '_OTHER'
  const fail = (span: Span, err: unknown) => {
    span.recordException(err instanceof Error ? err : String(err))
    span.setStatus({ code: SpanStatusCode.ERROR })
  }

  // The model call's span: started where the call is made (stream-reply.ts), under the active
  // span (the request's: a reply outlives its request, its spans stay in the request's trace),
  // ended when the model's stream ends. Its tool calls' spans are its children.
  traceModelCalls(({ provider, model }): ModelCallSpan => {
    const span = tracer.startSpan(`chat ${model}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': provider,
        'gen_ai.request.model': model,
      },
    })
    const started = performance.now()
    const within = trace.setSpan(context.active(), span)
    let firstToken = false
    let ended = false
    return {
      firstToken() {
        if (firstToken) return
        firstToken = true
        span.setAttribute('loris.reply.first_token_ms', Math.round(performance.now() - started))
      },
      toolCall(tool, run) {
        return tracer.startActiveSpan(
          `execute_tool ${tool.name}`,
          {
            kind: SpanKind.INTERNAL,
            attributes: {
              'gen_ai.operation.name': 'execute_tool',
              'gen_ai.tool.name': tool.name,
              'gen_ai.tool.call.id': tool.callId,
              ...(tool.description ? { 'gen_ai.tool.description': tool.description } : {}),
            },
          },
          within,
          async (toolSpan) => {
            try {
              const result = await run()
              if ((result as { isError?: unknown } | null)?.isError === true) {
                toolSpan.setAttribute('error.type', 'tool_error')
                toolSpan.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool reported an error' })
              }
              return result
            } catch (err) {
              toolSpan.setAttribute('error.type', errorType(err))
              fail(toolSpan, err)
              throw err
            } finally {
              toolSpan.end()
            }
          },
        )
      },
      end({ usage, finishReason, error, aborted }) {
        if (ended) return
        ended = true
        span.setAttributes({
          'gen_ai.response.model': model,
          ...(usage?.inputTokens != null ? { 'gen_ai.usage.input_tokens': usage.inputTokens } : {}),
          ...(usage?.outputTokens != null ? { 'gen_ai.usage.output_tokens': usage.outputTokens } : {}),
          ...(finishReason ? { 'gen_ai.response.finish_reasons': [finishReason] } : {}),
        })
        if (error !== undefined) {
          span.setAttribute('error.type', errorType(error))
          fail(span, error)
        } else if (aborted) {
          span.setAttribute('error.type', 'aborted')
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'stopped or timed out' })
        }
        span.end()
      },
    }
  })

  const middleware: MiddlewareHandler = async (c, next) => {
    // A proxy or another service may have started the trace (W3C traceparent).
    const parent = propagation.extract(context.active(), Object.fromEntries(c.req.raw.headers))
    const span = tracer.startSpan(
      c.req.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': c.req.method, 'url.path': c.req.path },
      },
      parent,
    )
    try {
      await context.with(trace.setSpan(parent, span), next)
    } finally {
      const route = routePath(c) || c.req.path
      span.updateName(`${c.req.method} ${route}`)
      span.setAttributes({ 'http.route': route, 'http.response.status_code': c.res.status })
      if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
      span.end()
    }
  }

  return {
    middleware,
    traceDatabase(database) {
      database.traceQueries?.(async (text, run) => {
        const operation = text.trimStart().split(/\s/, 1)[0]?.toUpperCase() || 'QUERY'
        return tracer.startActiveSpan(
          operation,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'db.system.name': 'postgresql',
              'db.operation.name': operation,
              // Statements are parameterized: their text holds no one's data.
              'db.query.text': text,
              'loris.db.kind': database.kind,
            },
          },
          async (span) => {
            try {
              return await run()
            } catch (err) {
              fail(span, err)
              throw err
            } finally {
              span.end()
            }
          },
        )
      })
    },
    async flush() {
      const provider = trace.getTracerProvider() as {
        getDelegate?: () => { forceFlush?: () => Promise<void> }
      }
      await provider.getDelegate?.().forceFlush?.()
    },
    async shutdown() {
      traceModelCalls(null)
      await sdk.shutdown()
      // The process's OpenTelemetry globals go back to doing nothing.
      trace.disable()
      context.disable()
      propagation.disable()
    },
  }
}
