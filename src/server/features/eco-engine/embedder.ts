// The small embedding model the eco engine runs for project knowledge (decision 068): a passage or
// a message becomes a vector that pgvector compares. Fetched on first use like the eco model
// (model-fetch.ts, with its progress in the log), loaded on the CPU with the eco engine's threads,
// one text at a time: node-llama-cpp evaluates on its own native threads, never on the event loop.
import path from 'node:path'
import type { Logger } from 'pino'
import { DEFAULT_EMBED_MODEL, type Env } from '#server/env.ts'
import { fetchModel } from './model-fetch.ts'
import { defaultThreads, fileNameFromUrl } from './settings.ts'

type NodeLlama = typeof import('node-llama-cpp')
type Llama = Awaited<ReturnType<NodeLlama['getLlama']>>
type LlamaModel = Awaited<ReturnType<Llama['loadModel']>>
type EmbeddingContext = Awaited<ReturnType<LlamaModel['createEmbeddingContext']>>

export type EmbedderState = 'idle' | 'downloading' | 'loading' | 'ready' | 'failed'

export interface EmbedderSettings {
  modelFile: string
  /** Null when the operator placed the file (EMBED_MODEL_FILE). */
  modelUrl: string | null
  sha256: string | null
  threads: number
  /** Put before a search query, never a passage: the model's own (BGE_QUERY_INSTRUCTION), or none. */
  queryPrefix: string
}

/** Tokens of a text the model reads at most: a passage (about 1,000 characters) fits whole. */
const MAX_INPUT_TOKENS = 512
const RETRY_AFTER_MS = 60_000

/**
 * What BGE's English models (the default bge-small-en-v1.5 among them) were trained to see before
 * a short query looking for passages; their card asks for it on the query alone, never on the
 * passages, which are embedded as they are. Without it, a question and the passage answering it
 * come out further apart. A model whose file name is not one of theirs (EMBED_MODEL_URL,
 * EMBED_MODEL_FILE) gets none: its instruction, if any, differs.
 */
export const BGE_QUERY_INSTRUCTION = 'Represent this sentence for searching relevant passages: '
const BGE_ENGLISH = /\bbge-(small|base|large)-en\b/i
const queryPrefixOf = (modelFile: string) =>
  BGE_ENGLISH.test(path.basename(modelFile)) ? BGE_QUERY_INSTRUCTION : ''

export function embedderSettings(env: Env): EmbedderSettings | null {
  if (env.EMBED_ENGINE === 'off') return null
  const threads = env.ECO_THREADS ?? defaultThreads()
  if (env.EMBED_MODEL_FILE) {
    const modelFile = path.resolve(env.EMBED_MODEL_FILE)
    return { modelFile, modelUrl: null, sha256: null, threads, queryPrefix: queryPrefixOf(modelFile) }
  }
  const isDefault = env.EMBED_MODEL_URL === DEFAULT_EMBED_MODEL.url
  const modelFile = path.resolve(env.DATA_DIR, 'models', fileNameFromUrl(env.EMBED_MODEL_URL))
  return {
    modelFile,
    modelUrl: env.EMBED_MODEL_URL,
    sha256: env.EMBED_MODEL_SHA256 ?? (isDefault ? DEFAULT_EMBED_MODEL.sha256 : null),
    threads,
    queryPrefix: queryPrefixOf(modelFile),
  }
}

export class Embedder {
  private state: EmbedderState = 'idle'
  private preparing: Promise<void> | null = null
  private failedAt = 0
  private model: LlamaModel | null = null
  private context: EmbeddingContext | null = null
  /** Texts are embedded one after another on the model's one context. */
  private queue: Promise<unknown> = Promise.resolve()
  private closed = false

  constructor(
    readonly settings: EmbedderSettings,
    private readonly log: Logger,
    private readonly opts: { fetchImpl?: typeof fetch } = {},
  ) {}

  /** The model's file name: stored beside each vector, so another model's are never compared. */
  get modelName(): string {
    return path.basename(this.settings.modelFile)
  }

  get queryPrefix(): string {
    return this.settings.queryPrefix
  }

  get ready(): boolean {
    return this.state === 'ready'
  }

  get status(): EmbedderState {
    return this.state
  }

  /** Fetches and loads the model if that is not under way; failures are retried after a minute. */
  prepare(): Promise<void> {
    if (this.state === 'ready') return Promise.resolve()
    if (this.preparing) return this.preparing
    if (this.state === 'failed' && Date.now() - this.failedAt < RETRY_AFTER_MS)
      return Promise.reject(new Error('the embedding model failed to load recently'))
    this.preparing = this.load().finally(() => {
      this.preparing = null
    })
    this.preparing.catch(() => {})
    return this.preparing
  }

  private async load(): Promise<void> {
    const { modelFile, modelUrl, sha256, threads } = this.settings
    try {
      if (modelUrl) {
        this.state = 'downloading'
        let logged = -10
        await fetchModel({
          url: modelUrl,
          file: modelFile,
          sha256,
          fetchImpl: this.opts.fetchImpl,
          onProgress: ({ bytes, totalBytes }) => {
            const percent = totalBytes ? Math.floor((bytes / totalBytes) * 100) : null
            if (percent === null || percent < logged + 10) return
            logged = percent
            this.log.info({ bytes, totalBytes, percent }, 'embedding model: downloading')
          },
        })
      }
      this.state = 'loading'
      const { getLlama, LlamaLogLevel } = await import('node-llama-cpp')
      const llama = await getLlama({
        gpu: false,
        build: 'never',
        maxThreads: threads,
        logLevel: LlamaLogLevel.error,
        logger: (level, message) => this.log.debug({ level, message: message.trim() }, 'llama.cpp'),
      })
      this.model = await llama.loadModel({ modelPath: modelFile, gpuLayers: 0 })
      this.context = await this.model.createEmbeddingContext({
        contextSize: Math.min(MAX_INPUT_TOKENS, this.model.trainContextSize),
        threads,
      })
      this.state = 'ready'
      this.log.info(
        { model: this.modelName, dimensions: this.model.embeddingVectorSize },
        'embedding model: loaded',
      )
    } catch (err) {
      this.state = 'failed'
      this.failedAt = Date.now()
      this.log.error(
        { err: err instanceof Error ? err.message : String(err), file: modelFile },
        'embedding model unavailable: retrieval ranks by full text alone',
      )
      throw err
    }
  }

  /** The text's vector (its first tokens when long), normalised to length 1. */
  embed(text: string): Promise<number[]> {
    const run = this.queue.then(async () => {
      if (this.closed) throw new Error('the embedding model was closed')
      await this.prepare()
      const { model, context } = this
      if (!model || !context) throw new Error('the embedding model is not loaded')
      // Room for the begin and end tokens the model adds around the text.
      const limit = Math.min(MAX_INPUT_TOKENS, model.trainContextSize) - 4
      const tokens = model.tokenize(text).slice(0, limit)
      const { vector } = await context.getEmbeddingFor(tokens.length ? tokens : model.tokenize(' '))
      const norm = Math.hypot(...vector) || 1
      return Array.from(vector, (v) => v / norm)
    })
    this.queue = run.catch(() => {})
    return run
  }

  async close(): Promise<void> {
    this.closed = true
    await this.queue
    await this.preparing?.catch(() => {})
    await this.context?.dispose()
    await this.model?.dispose()
    this.context = null
    this.model = null
    if (this.state === 'ready') this.state = 'idle'
  }
}

const embedders = new WeakMap<Env, Embedder | null>()

/** This environment's embedder (one per app, like the eco engine), or null when it is off. */
export function embedderFor(env: Env, log: Logger): Embedder | null {
  if (embedders.has(env)) return embedders.get(env) ?? null
  const settings = embedderSettings(env)
  const embedder = settings ? new Embedder(settings, log.child({ feature: 'embedder' })) : null
  embedders.set(env, embedder)
  return embedder
}

/** Frees this environment's embedding model (tests, shutdown). */
export async function closeEmbedder(env: Env): Promise<void> {
  await embedders.get(env)?.close()
  embedders.delete(env)
}
