// Loopback OpenTelemetry collector: takes OTLP/HTTP JSON trace exports (POST /v1/traces, as
// @opentelemetry/exporter-trace-otlp-http sends them) and keeps the spans, flattened, for tests.
import { createServer } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { closeServer, listen, readBody, sendJson } from './http-helpers.ts'

type AnyValue = {
  stringValue?: string
  intValue?: string | number
  doubleValue?: number
  boolValue?: boolean
  arrayValue?: { values: AnyValue[] }
}
type KeyValue = { key: string; value: AnyValue }

export interface CollectedSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  /** Nanoseconds since the epoch, as decimal strings (OTLP JSON). */
  startTimeUnixNano: string
  endTimeUnixNano: string
  attributes: Record<string, unknown>
  /** The resource's attributes (service.name...). */
  resource: Record<string, unknown>
  status?: { code?: number }
}

export interface OtlpStandIn {
  url: string
  spans: CollectedSpan[]
  close(): Promise<void>
}

const plainValue = (v: AnyValue): unknown =>
  v.stringValue ??
  (v.intValue !== undefined ? Number(v.intValue) : undefined) ??
  v.doubleValue ??
  v.boolValue ??
  v.arrayValue?.values.map(plainValue)
const record = (kvs: KeyValue[] = []) => Object.fromEntries(kvs.map((kv) => [kv.key, plainValue(kv.value)]))

export async function startOtlpStandIn(): Promise<OtlpStandIn> {
  const spans: CollectedSpan[] = []
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') return sendJson(res, 404, { error: 'not found' })
    let body = await readBody(req, 16 * 2 ** 20)
    if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body)
    if (!String(req.headers['content-type']).startsWith('application/json'))
      return sendJson(res, 415, { error: 'this stand-in reads OTLP JSON only' })
    const payload = JSON.parse(body.toString()) as {
      resourceSpans?: Array<{
        resource?: { attributes?: KeyValue[] }
        scopeSpans?: Array<{
          spans?: Array<Omit<CollectedSpan, 'attributes' | 'resource'> & { attributes?: KeyValue[] }>
        }>
      }>
    }
    for (const rs of payload.resourceSpans ?? []) {
      const resource = record(rs.resource?.attributes)
      for (const ss of rs.scopeSpans ?? [])
        for (const s of ss.spans ?? []) spans.push({ ...s, attributes: record(s.attributes), resource })
    }
    sendJson(res, 200, {})
  })
  const url = await listen(server, 0, '127.0.0.1')
  return { url, spans, close: () => closeServer(server) }
}
