// Where the in-process eco engine gets its model and how it runs, from the environment alone
// (docs/decisions/020-eco-engine.md).
import os from 'node:os'
import path from 'node:path'
import { DEFAULT_ECO_MODEL, type Env } from '#server/env.ts'

export interface EcoEngineSettings {
  /** The GGUF file the engine loads. */
  modelFile: string
  /** Where to fetch it from when it is missing; null when the operator placed the file (ECO_MODEL_FILE). */
  modelUrl: string | null
  /** The checksum the fetched file must have; null: take Hugging Face's (X-Linked-Etag). */
  sha256: string | null
  /** Bytes expected, for the progress bar before the server says (the default model only). */
  expectedBytes: number | null
  threads: number
  parallel: number
  cpuTdpW: number
  /** ECO_MODEL_PARAMS_B, else the default model's size when it is the default model. */
  paramsB: number | null
}

/** The source the eco mode uses, in the order of the issue: endpoint, file, default fetched model. */
export type EcoSource = 'endpoint' | 'file' | 'download' | 'partial' | 'none'

export function ecoSource(env: Env): EcoSource {
  if (env.ECO_BASE_URL && env.ECO_MODEL) return 'endpoint'
  // Half an endpoint configuration is a mistake: running another model would hide it.
  if (env.ECO_BASE_URL || env.ECO_MODEL) return 'partial'
  if (env.ECO_ENGINE === 'off') return 'none'
  return env.ECO_MODEL_FILE ? 'file' : 'download'
}

/**
 * Threads that make tokens fastest: llama.cpp's generation is memory-bound, so one thread per
 * physical core at most, and on a small shared machine oversubscribing hurts badly (on 2 busy
 * cores 1 thread measured 2 to 10 times faster than 2). Logical CPUs / 2 approximates the
 * physical cores under SMT; 1 on 2 cores or fewer.
 */
export function defaultThreads(logicalCpus = os.availableParallelism()): number {
  return logicalCpus <= 2 ? 1 : Math.floor(logicalCpus / 2)
}

/** The file name a URL's last path segment gives, for DATA_DIR/models/. */
export function fileNameFromUrl(url: string): string {
  const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '')
  const safe = last.replace(/[^\w.-]/g, '_')
  return safe && safe !== '.' && safe !== '..' ? safe : 'eco-model.gguf'
}

export function ecoEngineSettings(env: Env): EcoEngineSettings {
  const isDefault = env.ECO_MODEL_URL === DEFAULT_ECO_MODEL.url
  const base = {
    threads: env.ECO_THREADS ?? defaultThreads(),
    parallel: env.ECO_PARALLEL,
    cpuTdpW: env.ECO_CPU_TDP_W,
  }
  if (env.ECO_MODEL_FILE)
    return {
      ...base,
      modelFile: path.resolve(env.ECO_MODEL_FILE),
      modelUrl: null,
      sha256: null,
      expectedBytes: null,
      paramsB: env.ECO_MODEL_PARAMS_B ?? null,
    }
  return {
    ...base,
    modelFile: path.resolve(env.DATA_DIR, 'models', fileNameFromUrl(env.ECO_MODEL_URL)),
    modelUrl: env.ECO_MODEL_URL,
    sha256: env.ECO_MODEL_SHA256 ?? (isDefault ? DEFAULT_ECO_MODEL.sha256 : null),
    expectedBytes: isDefault ? DEFAULT_ECO_MODEL.bytes : null,
    paramsB: env.ECO_MODEL_PARAMS_B ?? (isDefault ? DEFAULT_ECO_MODEL.paramsB : null),
  }
}
