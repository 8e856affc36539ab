// Prometheus metrics of this process (GET /metrics, docs/decisions/061), not to be confused with
// a person's CO2 figures (features/metrics, /api/metrics/co2). Counted where things happen by
// one-line calls (requests here, replies at finalize); queue and pool sizes are read at scrape
// time from the sources app.ts registers. Node's own metrics (event-loop delay, heap, CPU) start
// at the first scrape: a server nobody scrapes keeps no timer for them (decision 035).
import cluster from 'node:cluster'
import { randomUUID } from 'node:crypto'
import client from 'prom-client'

export const registry = new client.Registry()

// Each metric is declared by what sets it apart: name, help, labels and, for a histogram, buckets.
const counter = <const L extends string>(name: string, help: string, labelNames: readonly L[]) =>
  new client.Counter({ name, help, labelNames, registers: [registry] })
const histogram = <const L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets: number[],
) => new client.Histogram({ name, help, labelNames, buckets, registers: [registry] })
/** A gauge read at scrape time: `collect` sets it afresh from its source. */
const gauge = <const L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  collect: (this: client.Gauge<L>) => void,
) => new client.Gauge({ name, help, labelNames, registers: [registry], collect })

const ROUTE = ['route', 'method', 'status'] as const
const MODEL = ['provider', 'model'] as const

const requests = counter(
  'loris_http_requests_total',
  'HTTP requests answered, by route pattern, method and status',
  ROUTE,
)
const requestSeconds = histogram(
  'loris_http_request_duration_seconds',
  'Time to answer an HTTP request (to the start of a streamed body), by route pattern',
  ROUTE,
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
)
const replies = counter(
  'loris_replies_total',
  'Replies stored, by model and status (complete, interrupted, failed)',
  [...MODEL, 'status'],
)
const tokens = counter(
  'loris_reply_tokens_total',
  'Tokens of stored replies as the provider counted them, by model and kind (input, output)',
  [...MODEL, 'kind'],
)
const firstToken = histogram(
  'loris_reply_first_token_seconds',
  'Time from the model call to its first text, by model',
  MODEL,
  [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
)
const replySeconds = histogram(
  'loris_reply_duration_seconds',
  'Time from the model call to the end of the reply, by model and status',
  [...MODEL, 'status'],
  [0.5, 1, 2, 5, 10, 20, 40, 80, 160, 300],
)
const co2Emitted = counter(
  'loris_co2_emitted_grams_total',
  "CO2e of stored replies, grams (the method's midpoint), by model",
  MODEL,
)
const co2Saved = counter(
  'loris_co2_saved_grams_total',
  'CO2e saved against the standard model, grams (midpoint), by model',
  MODEL,
)

type Reader = () => number | null
const queueReaders = new Map<string, { waiting: Reader; active: Reader }>()
let poolReader: (() => { total: number; idle: number; waiting: number; max: number } | null) | null = null

/** One series per watched queue, from its reader (one answering null is left out). */
const queueGauge = (name: string, help: string, which: 'waiting' | 'active') =>
  gauge(name, help, ['queue'], function () {
    this.reset()
    for (const [queue, readers] of queueReaders) {
      const n = readers[which]()
      if (n !== null) this.set({ queue }, n)
    }
  })
queueGauge(
  'loris_queue_waiting',
  'Work waiting for a slot: eco_engine (replies), parse_pool (files), imports',
  'waiting',
)
queueGauge('loris_queue_active', 'Work holding a slot now, by queue', 'active')
gauge(
  'loris_db_pool_connections',
  'PostgreSQL pool connections by state (in_use, idle, waiting for one, max); absent on the embedded database',
  ['state'],
  function () {
    this.reset()
    const p = poolReader?.()
    if (!p) return
    this.set({ state: 'in_use' }, p.total - p.idle)
    this.set({ state: 'idle' }, p.idle)
    this.set({ state: 'waiting' }, p.waiting)
    this.set({ state: 'max' }, p.max)
  },
)

/** Names a queue whose length the scrape reads (a reader answering null is left out). */
export function watchQueue(queue: string, waiting: Reader, active: Reader): void {
  queueReaders.set(queue, { waiting, active })
}

export function watchDatabasePool(read: typeof poolReader): void {
  poolReader = read
}

export function countRequest(route: string, method: string, status: number, seconds: number): void {
  const labels = { route, method, status: String(status) }
  requests.inc(labels)
  requestSeconds.observe(labels, seconds)
}

export interface ReplyMetrics {
  provider: string
  model: string
  status: string
  inputTokens: number | null
  outputTokens: number | null
  latencyMs: number
  firstTokenMs?: number | null
  co2?: { actual: { mid: number }; saved: { mid: number } } | null
}

/** A stored reply: called once per reply, where it is finalized. */
export function countReply(r: ReplyMetrics): void {
  const model = { provider: r.provider, model: r.model }
  replies.inc({ ...model, status: r.status })
  replySeconds.observe({ ...model, status: r.status }, r.latencyMs / 1000)
  if (r.inputTokens) tokens.inc({ ...model, kind: 'input' }, r.inputTokens)
  if (r.outputTokens) tokens.inc({ ...model, kind: 'output' }, r.outputTokens)
  if (r.firstTokenMs != null) firstToken.observe(model, r.firstTokenMs / 1000)
  if (r.co2) {
    co2Emitted.inc(model, r.co2.actual.mid)
    co2Saved.inc(model, Math.max(0, r.co2.saved.mid))
  }
}

let defaults = false
const startDefaults = () => {
  if (defaults) return
  defaults = true
  client.collectDefaultMetrics({ register: registry, prefix: 'loris_', eventLoopMonitoringPrecision: 20 })
}

// Several workers on one port (cluster.ts): the one a scrape reaches asks the primary, which
// gathers every worker's registry (prom-client's AggregatorRegistry) and sums them.
const ASK = 'loris:metrics-ask'
const ANSWER = 'loris:metrics-answer'
const CLUSTER_WAIT_MS = 10_000
interface ClusterAnswer {
  type: typeof ANSWER
  id: string
  text?: string
  error?: string
}
const waiting = new Map<string, (answer: ClusterAnswer) => void>()
if (cluster.isWorker) {
  new client.AggregatorRegistry()
  client.AggregatorRegistry.setRegistries([registry])
  process.on('message', (message: { type?: string; id?: string }) => {
    // The primary gathering: every worker's Node metrics are there from the next scrape on.
    if (message?.type === 'prom-client:getMetricsReq') startDefaults()
    if (message?.type === ANSWER && message.id) waiting.get(message.id)?.(message as ClusterAnswer)
  })
}

function askPrimary(): Promise<string> {
  const id = randomUUID()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id)
      reject(new Error("the primary did not gather the workers' metrics in time"))
    }, CLUSTER_WAIT_MS)
    waiting.set(id, (answer) => {
      clearTimeout(timer)
      waiting.delete(id)
      if (answer.text !== undefined) resolve(answer.text)
      else reject(new Error(answer.error ?? "gathering the workers' metrics failed"))
    })
    process.send?.({ type: ASK, id })
  })
}

/** In the primary of several workers: answers a worker's ASK with every worker's metrics. */
export function gatherWorkerMetrics(): void {
  const aggregator = new client.AggregatorRegistry()
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== ASK || !message.id) return
    const id = message.id
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id, text }),
      (err: Error) => worker.send({ type: ANSWER, id, error: err.message }),
    )
  })
}

/** The scrape's text: Node's own metrics start with the first one. */
export async function metricsText(): Promise<string> {
  startDefaults()
  if (cluster.isWorker && process.send) return askPrimary()
  return registry.metrics()
}

export const METRICS_CONTENT_TYPE = registry.contentType
