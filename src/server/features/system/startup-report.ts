// One table at start-up: what this deployment has configured and what each missing piece needs.
// For the operator: environment variable names belong here, never on end users' screens.
import type { Env } from '#server/env.ts'
import { ecoEngineSettings, ecoSource } from '#server/features/eco-engine/settings.ts'
import { loadCatalogue } from '#server/features/models/catalogue.ts'
import { parseMcpServers } from '#server/features/tools/mcp.ts'
import { createWebSearch } from '#server/features/tools/web-search.ts'
import { chooseEngine } from '#server/features/voice/engines.ts'

interface Row {
  feature: string
  state: string
  needs: string
}

/** What each MCP server answered when asked for its tools at start (tools/mcp.ts describeMcpServers). */
export type McpSummary = Array<{ name: string; tools: number | null; needApproval: number }>

const SEARCH_NAMES: Record<string, string> = { searxng: 'SearXNG', brave: 'Brave Search', tavily: 'Tavily' }

export function startupRows(env: Env, mcp: McpSummary = []): Row[] {
  const rows: Row[] = []
  const row = (feature: string, ok: boolean, okText: string, needs: string) =>
    rows.push({ feature, state: ok ? okText : 'not configured', needs: ok ? '' : needs })

  row('Gemini', Boolean(env.GEMINI_API_KEY), 'configured', 'GEMINI_API_KEY')
  row('ChatGPT', Boolean(env.OPENAI_API_KEY), `configured (${env.OPENAI_MODEL})`, 'OPENAI_API_KEY')
  const source = ecoSource(env)
  const eco = source === 'file' || source === 'download' ? ecoEngineSettings(env) : null
  switch (source) {
    case 'endpoint':
      rows.push({ feature: 'Loris eco', state: `endpoint ${env.ECO_BASE_URL} (${env.ECO_MODEL})`, needs: '' })
      break
    case 'partial':
      rows.push({
        feature: 'Loris eco',
        state: 'half configured',
        needs: `set both ECO_BASE_URL and ECO_MODEL (${env.ECO_BASE_URL ? 'ECO_MODEL' : 'ECO_BASE_URL'} is missing)`,
      })
      break
    case 'file':
      rows.push({
        feature: 'Loris eco',
        state: `in process, ${eco?.modelFile}`,
        needs: `${eco?.threads} thread(s), ${eco?.parallel} replies at once (ECO_THREADS, ECO_PARALLEL)`,
      })
      break
    case 'download':
      rows.push({
        feature: 'Loris eco',
        state: `in process, fetched on first use to ${eco?.modelFile}`,
        needs: `from ${env.ECO_MODEL_URL}; run npm run eco:fetch ahead, or set ECO_MODEL_FILE`,
      })
      break
    default:
      rows.push({
        feature: 'Loris eco',
        state: 'off (ECO_ENGINE=off)',
        needs: 'ECO_BASE_URL and ECO_MODEL, or ECO_ENGINE=on',
      })
  }
  rows.push(catalogueRow(env))
  const search = createWebSearch(env)
  rows.push({
    feature: 'Web search',
    state: search
      ? `${SEARCH_NAMES[search.provider] ?? search.provider}${env.SEARXNG_URL && search.provider === 'searxng' ? ` at ${env.SEARXNG_URL}` : ''}`
      : 'off',
    needs: search ? '' : 'SEARXNG_URL (recommended), BRAVE_SEARCH_API_KEY or TAVILY_API_KEY',
  })
  rows.push(mcpRow(env, mcp))
  row(
    'Payments',
    Boolean(env.STRIPE_SECRET_KEY),
    'configured',
    'STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID',
  )
  row(
    'Google sign-in',
    Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
    'configured',
    'GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET',
  )
  const voice = chooseEngine(env)
  rows.push({
    feature: 'Voice',
    state: voice.id ? `configured (${voice.id})` : 'not available',
    needs: voice.id ? '' : voice.reason,
  })
  rows.push({
    feature: 'Database',
    state: env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${env.DATA_DIR}`,
    needs: '',
  })
  // Decision 068: passages are ranked by PostgreSQL full-text search on either database; no
  // embedding model runs, so pgvector is not used even where the server has it.
  rows.push({
    feature: 'Project knowledge',
    state: 'full-text retrieval (PostgreSQL ranking)',
    needs: 'vector similarity is not used (no embedding model)',
  })
  rows.push(
    env.S3_BUCKET
      ? {
          feature: 'Uploads',
          state: `S3 bucket ${env.S3_BUCKET} at ${env.S3_ENDPOINT ?? `AWS ${env.S3_REGION}`}`,
          needs: '',
        }
      : {
          feature: 'Uploads',
          state: `disk, ${env.DATA_DIR}/uploads`,
          needs: 'S3_BUCKET (and S3_ENDPOINT...) to share them among nodes',
        },
  )
  rows.push({
    feature: 'Metrics',
    state: env.METRICS_TOKEN ? 'GET /metrics (loopback, or METRICS_TOKEN)' : 'GET /metrics (loopback only)',
    needs: env.METRICS_TOKEN ? '' : 'METRICS_TOKEN to scrape from another machine',
  })
  rows.push({
    feature: 'Traces',
    state: env.OTEL_EXPORTER_OTLP_ENDPOINT ? `OTLP to ${env.OTEL_EXPORTER_OTLP_ENDPOINT}` : 'off',
    needs: env.OTEL_EXPORTER_OTLP_ENDPOINT ? '' : 'OTEL_EXPORTER_OTLP_ENDPOINT',
  })
  rows.push({
    feature: 'CO2 zone',
    state: env.LORIS_ZONE ?? 'WOR (world mix)',
    needs: env.LORIS_ZONE ? '' : 'LORIS_ZONE',
  })
  return rows
}

/** The MCP servers' tools: how many servers, and what each answered at start. */
function mcpRow(env: Env, summary: McpSummary): Row {
  let count: number
  try {
    count = parseMcpServers(env.MCP_SERVERS).length
  } catch (err) {
    return { feature: 'MCP tools', state: 'invalid', needs: (err as Error).message }
  }
  if (count === 0) return { feature: 'MCP tools', state: 'off', needs: 'MCP_SERVERS' }
  const servers = `${count} server${count === 1 ? '' : 's'}`
  const tools = summary.reduce((n, s) => n + (s.tools ?? 0), 0)
  const approval = summary.reduce((n, s) => n + s.needApproval, 0)
  const silent = summary.filter((s) => s.tools === null).map((s) => s.name)
  const parts = [
    servers,
    // Counted over the servers that answered; none answering, there is nothing to count.
    ...(summary.length > silent.length ? [`${tools} tool${tools === 1 ? '' : 's'}`] : []),
    ...(approval ? [`${approval} asking approval`] : []),
  ]
  return {
    feature: 'MCP tools',
    state: parts.join(', '),
    needs: silent.length ? `not answering now: ${silent.join(', ')} (tried again on each reply)` : '',
  }
}

/** Models beside the modes (models/catalogue.ts): what the keys, endpoints and models file give. */
function catalogueRow(env: Env): Row {
  const needs = 'ANTHROPIC_API_KEY, MISTRAL_API_KEY, OPENAI_COMPATIBLE_ENDPOINTS, LORIS_MODELS_FILE'
  try {
    const { models, summary } = loadCatalogue(env)
    const eco = models.filter((m) => m.eco).length
    return {
      feature: 'More models',
      state: eco ? `${summary}; ${eco} in the eco pool` : summary,
      needs: models.length ? '' : needs,
    }
  } catch (err) {
    return { feature: 'More models', state: 'invalid', needs: (err as Error).message.replace(/\s+/g, ' ') }
  }
}

/** The rows as a plain-text table. */
export function startupTable(env: Env, mcp: McpSummary = []): string {
  const rows = [{ feature: 'Feature', state: 'State', needs: 'To set it up' }, ...startupRows(env, mcp)]
  const w1 = Math.max(...rows.map((r) => r.feature.length))
  const w2 = Math.max(...rows.map((r) => r.state.length))
  const line = (r: Row) => `  ${r.feature.padEnd(w1)}  ${r.state.padEnd(w2)}  ${r.needs}`.trimEnd()
  const [head, ...body] = rows
  return [
    'Loris configuration:',
    line(head as Row),
    `  ${'-'.repeat(w1)}  ${'-'.repeat(w2)}  ${'-'.repeat(12)}`,
    ...body.map(line),
  ].join('\n')
}
