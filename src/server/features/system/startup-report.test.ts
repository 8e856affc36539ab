import { describe, expect, it } from 'vitest'
import { parseEnv } from '#server/env.ts'
import { startupTable } from './startup-report.ts'

const env = (vars: Record<string, string>) => parseEnv({ NODE_ENV: 'test', DATA_DIR: '/srv/loris', ...vars })

describe('the start-up table', () => {
  it('says what is configured and what each missing piece needs, naming the variables', () => {
    const table = startupTable(env({ OPENAI_API_KEY: 'k' }))
    expect(table.split('\n')[0]).toBe('Loris configuration:')
    expect(table).toMatch(/Gemini\s+not configured\s+GEMINI_API_KEY/)
    expect(table).toMatch(/ChatGPT\s+configured \(gpt-3\.5-turbo\)/)
    expect(table).toMatch(
      /Loris eco\s+in process, fetched on first use to \/srv\/loris\/models\/qwen2\.5-0\.5b-instruct-q4_k_m\.gguf\s+from https:\/\/huggingface\.co\/Qwen\/.*; run npm run eco:fetch ahead, or set ECO_MODEL_FILE/,
    )
    expect(table).toMatch(/Payments\s+not configured\s+STRIPE_SECRET_KEY/)
    expect(table).toMatch(/Database\s+embedded PGlite in \/srv\/loris/)
    expect(table).toMatch(/Project knowledge\s+full-text retrieval \(PostgreSQL ranking\)/)
  })

  it('names the eco sources: endpoint, half an endpoint, a file, off', () => {
    expect(
      startupTable(env({ ECO_BASE_URL: 'http://127.0.0.1:11434/v1', ECO_MODEL: 'qwen2.5:0.5b' })),
    ).toMatch(/Loris eco\s+endpoint http:\/\/127\.0\.0\.1:11434\/v1 \(qwen2\.5:0\.5b\)/)
    expect(startupTable(env({ ECO_MODEL: 'qwen2.5:0.5b' }))).toMatch(
      /Loris eco\s+half configured\s+set both ECO_BASE_URL and ECO_MODEL \(ECO_BASE_URL is missing\)/,
    )
    expect(startupTable(env({ ECO_MODEL_FILE: '/m/eco.gguf', ECO_THREADS: '3' }))).toMatch(
      /Loris eco\s+in process, \/m\/eco\.gguf\s+3 thread\(s\), 2 replies at once/,
    )
    expect(startupTable(env({ ECO_ENGINE: 'off' }))).toMatch(/Loris eco\s+off \(ECO_ENGINE=off\)/)
  })

  it('says where uploads are kept: the disk, or a bucket', () => {
    expect(startupTable(env({}))).toMatch(
      /Uploads\s+disk, \/srv\/loris\/uploads\s+S3_BUCKET \(and S3_ENDPOINT\.\.\.\) to share them among nodes/,
    )
    expect(
      startupTable(
        env({ S3_BUCKET: 'loris-files', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' }),
      ),
    ).toMatch(/Uploads\s+S3 bucket loris-files at http:\/\/minio:9000\/?\s*$/m)
    expect(startupTable(env({ S3_BUCKET: 'loris-files', S3_REGION: 'eu-west-3' }))).toMatch(
      /Uploads\s+S3 bucket loris-files at AWS eu-west-3/,
    )
  })

  it('says who may read /metrics and where traces go', () => {
    expect(startupTable(env({}))).toMatch(
      /Metrics\s+GET \/metrics \(loopback only\)\s+METRICS_TOKEN to scrape from another machine/,
    )
    expect(startupTable(env({ METRICS_TOKEN: 'a-token-of-sixteen-chars' }))).toMatch(
      /Metrics\s+GET \/metrics \(loopback, or METRICS_TOKEN\)/,
    )
    expect(startupTable(env({}))).toMatch(/Traces\s+off\s+OTEL_EXPORTER_OTLP_ENDPOINT/)
    expect(startupTable(env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318' }))).toMatch(
      /Traces\s+OTLP to http:\/\/otel:4318/,
    )
  })

  it('names the web search provider, or says it is off', () => {
    expect(startupTable(env({}))).toMatch(
      /Web search\s+off\s+SEARXNG_URL \(recommended\), BRAVE_SEARCH_API_KEY or TAVILY_API_KEY/,
    )
    expect(startupTable(env({ SEARXNG_URL: 'http://searx:8080' }))).toMatch(
      /Web search\s+SearXNG at http:\/\/searx:8080\/?\s*$/m,
    )
    expect(startupTable(env({ BRAVE_SEARCH_API_KEY: 'k' }))).toMatch(/Web search\s+Brave Search\s*$/m)
    expect(startupTable(env({ TAVILY_API_KEY: 'k' }))).toMatch(/Web search\s+Tavily\s*$/m)
  })

  it('counts the MCP servers and the tools they answered with, naming one that did not', () => {
    expect(startupTable(env({}))).toMatch(/MCP tools\s+off\s+MCP_SERVERS/)
    const servers = JSON.stringify([
      { name: 'zoo', url: 'http://zoo/mcp', needsApproval: ['release_animal'] },
      { name: 'files', url: 'http://files/mcp' },
    ])
    expect(
      startupTable(env({ MCP_SERVERS: servers }), [
        { name: 'zoo', tools: 2, needApproval: 1 },
        { name: 'files', tools: null, needApproval: 0 },
      ]),
    ).toMatch(
      /MCP tools\s+2 servers, 2 tools, 1 asking approval\s+not answering now: files \(tried again on each reply\)/,
    )
    expect(
      startupTable(env({ MCP_SERVERS: servers }), [
        { name: 'zoo', tools: null, needApproval: 0 },
        { name: 'files', tools: null, needApproval: 0 },
      ]),
    ).toMatch(/MCP tools\s+2 servers\s+not answering now: zoo, files/)
    expect(startupTable(env({ MCP_SERVERS: '[{"name":"zoo"}]' }))).toMatch(
      /MCP tools\s+invalid\s+MCP_SERVERS: 0\.url/,
    )
  })
})
