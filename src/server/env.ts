import { z } from 'zod'

// Every environment variable Loris reads, in one schema. Edit together with the README table
// and .env.example. Parsing fails fast and lists every problem at once.
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined))
const optionalUrl = optionalString.pipe(z.url().optional())

/**
 * The eco model fetched on first use when no endpoint or file is configured (docs/decisions/020):
 * Qwen2.5-0.5B-Instruct Q4_K_M, Apache-2.0, pinned to a revision so the checksum cannot drift.
 */
export const DEFAULT_ECO_MODEL = {
  url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/9217f5db79a29953eb74d5343926648285ec7e67/qwen2.5-0.5b-instruct-q4_k_m.gguf',
  sha256: '74a4da8c9fdbcd15bd1f6d01d621410d31c6fc00986f5eb687824e7b93d7a9db',
  bytes: 491_400_032,
  paramsB: 0.49,
} as const

/**
 * The embedding model project knowledge is ranked with besides full text (decision 068), fetched
 * on first use: bge-small-en-v1.5 (BAAI, MIT) at 8 bits, 384 dimensions, about 37 MB.
 */
export const DEFAULT_EMBED_MODEL = {
  url: 'https://huggingface.co/CompendiumLabs/bge-small-en-v1.5-gguf/resolve/d32f8c040ea3b516330eeb75b72bcc2d3a780ab7/bge-small-en-v1.5-q8_0.gguf',
  sha256: 'ec38e8da142596baa913124ae50550de284b6916bf59577ef2f0cb9660c2f514',
} as const

const sha256Var = (name: string) =>
  optionalString.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, `${name} is 64 hexadecimal characters`)
      .transform((v) => v.toLowerCase())
      .optional(),
  )

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl,
  // Worker processes serving the app: unset means one per core but one with DATABASE_URL
  // and one on the embedded database, which a single process owns (decisions 015, 074).
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  PUBLIC_URL: optionalUrl,
  SESSION_SECRET: optionalString.pipe(
    z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // The reverse proxies in front of the app whose X-Forwarded-For entries are believed: 'true' is
  // one (the usual TLS proxy), a number says how many (a CDN, then the proxy), 'false' none.
  TRUST_PROXY: z
    .union([z.enum(['true', 'false']), z.coerce.number().int().min(0).max(10)])
    .default('false')
    .transform((v) => (v === 'true' ? 1 : v === 'false' ? 0 : v)),

  // Models (issue: conversations)
  GEMINI_API_KEY: optionalString,
  GEMINI_BASE_URL: optionalUrl,
  GEMINI_MODEL_PRO: z.string().default('gemini-2.5-pro'),
  GEMINI_MODEL_FLASH_LITE: z.string().default('gemini-2.5-flash-lite'),
  GEMINI_MODEL_PREMIUM_FALLBACK: z.string().default('gemini-2.0-flash'),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_MODEL: z.string().default('gpt-3.5-turbo'),
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalUrl,
  MISTRAL_API_KEY: optionalString,
  MISTRAL_BASE_URL: optionalUrl,
  // OpenAI-compatible servers (Ollama, vLLM, llama.cpp server, OpenRouter): a JSON array of
  // {name, baseURL, apiKey?, models?}; models/catalogue.ts reads and checks it.
  OPENAI_COMPATIBLE_ENDPOINTS: optionalString,
  // Extra models, or limits on the default ones: a JSON file (models/catalogue.ts says its shape).
  LORIS_MODELS_FILE: optionalString,
  ECO_BASE_URL: optionalUrl,
  ECO_MODEL: optionalString,
  ECO_API_KEY: optionalString,
  ECO_MODEL_PARAMS_B: z.coerce.number().positive().optional(),
  // The in-process eco engine (docs/decisions/020-eco-engine.md)
  ECO_ENGINE: z.enum(['on', 'off']).default('on'),
  ECO_MODEL_FILE: optionalString,
  ECO_MODEL_URL: z.url().default(DEFAULT_ECO_MODEL.url),
  ECO_MODEL_SHA256: sha256Var('ECO_MODEL_SHA256'),
  ECO_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  ECO_PARALLEL: z.coerce.number().int().min(1).max(16).default(2),
  ECO_CPU_TDP_W: z.coerce.number().positive().default(85),
  // The embedding model the eco engine runs for project knowledge (decision 068)
  EMBED_ENGINE: z.enum(['on', 'off']).default('on'),
  EMBED_MODEL_FILE: optionalString,
  EMBED_MODEL_URL: z.url().default(DEFAULT_EMBED_MODEL.url),
  EMBED_MODEL_SHA256: sha256Var('EMBED_MODEL_SHA256'),

  // Voice
  TRANSCRIBE_ENGINE: z.enum(['auto', 'openai', 'gemini', 'pocketsphinx']).default('auto'),
  TRANSCRIBE_MODEL: z.string().default('whisper-1'),

  // Impact
  LORIS_ZONE: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Z]{3}$/, 'LORIS_ZONE is an ISO 3166 alpha-3 code or WOR')
      .optional(),
  ),

  // Billing
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PRICE_ID: optionalString,
  STRIPE_API_URL: optionalUrl,

  // E-mail (verification, password reset, notices). Without SMTP_URL messages are written to
  // DATA_DIR/outbox/ as .eml files (decision 010).
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'SMTP_URL is an smtp:// or smtps:// URL, e.g. smtp://user:pass@host:587')
      .optional(),
  ),
  MAIL_FROM: optionalString,

  // Uploaded files in an S3-compatible bucket instead of DATA_DIR/uploads (docs/decisions/060)
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),

  // Operations: Prometheus metrics and OpenTelemetry traces (docs/decisions/061)
  METRICS_TOKEN: optionalString.pipe(
    z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_SERVICE_NAME: z.string().default('loris'),

  // `npm run eco:serve`: the eco engine alone behind an OpenAI-compatible API (docs/decisions/062)
  ECO_SERVE_PORT: z.coerce.number().int().min(0).max(65535).default(5100),
  ECO_SERVE_HOST: z.string().default('127.0.0.1'),
  ECO_SERVE_API_KEY: optionalString,

  // Google sign-in
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_ISSUER_URL: z.url().default('https://accounts.google.com'),

  // Operating (features/admin): these verified addresses are operators; `invite` makes
  // registering need an operator's invite.
  ADMIN_EMAILS: optionalString.transform((v) =>
    (v ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  ),
  SIGNUP: z.enum(['open', 'invite']).default('open'),

  // Web search, links and tools (features/tools, decision 065)
  SEARXNG_URL: optionalUrl,
  BRAVE_SEARCH_API_KEY: optionalString,
  BRAVE_SEARCH_BASE_URL: optionalUrl,
  TAVILY_API_KEY: optionalString,
  TAVILY_BASE_URL: optionalUrl,
  // MCP servers whose tools models may call: a JSON array (tools/mcp.ts says its shape).
  MCP_SERVERS: optionalString,
  // Tests only: lets a read link reach loopback and private addresses. Refused in production.
  READ_LINK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
})

export type Env = z.infer<typeof envSchema>

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source)
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  const env = result.data
  if (env.NODE_ENV === 'production' && env.READ_LINK_ALLOW_PRIVATE === 'true') {
    throw new Error(
      'Invalid environment:\n  READ_LINK_ALLOW_PRIVATE: only for tests; it lets links reach this network, never set it in production',
    )
  }
  if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
    throw new Error(
      'Invalid environment:\n  SESSION_SECRET: required when NODE_ENV=production (32+ characters)',
    )
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    throw new Error(
      'Invalid environment:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both, or neither to use the default AWS credentials',
    )
  }
  return env
}

/** The origin browsers use to reach us; PUBLIC_URL when set, else the listen address. */
export function publicOrigin(env: Env): string {
  if (env.PUBLIC_URL) return new URL(env.PUBLIC_URL).origin
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST
  return `http://${host}:${env.PORT}`
}
