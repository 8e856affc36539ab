import { describe, expect, it } from 'vitest'
import { parseEnv } from '#server/env.ts'
import { BGE_QUERY_INSTRUCTION, embedderSettings } from './embedder.ts'

const settings = (vars: Record<string, string>) =>
  embedderSettings(parseEnv({ NODE_ENV: 'test', EMBED_ENGINE: 'on', ...vars }))

describe('the embedding model’s query prefix', () => {
  it('is BGE’s retrieval instruction for the default model and the BGE English models', () => {
    expect(BGE_QUERY_INSTRUCTION).toBe('Represent this sentence for searching relevant passages: ')
    expect(settings({})?.queryPrefix).toBe(BGE_QUERY_INSTRUCTION)
    expect(settings({ EMBED_MODEL_FILE: '/models/bge-base-en-v1.5-f16.gguf' })?.queryPrefix).toBe(
      BGE_QUERY_INSTRUCTION,
    )
    expect(
      settings({ EMBED_MODEL_URL: 'https://example.com/m/BGE-Large-EN-v1.5-Q4_K_M.gguf' })?.queryPrefix,
    ).toBe(BGE_QUERY_INSTRUCTION)
  })

  it('is nothing for another model, whose instruction, if any, differs', () => {
    expect(settings({ EMBED_MODEL_FILE: 'tests/fixtures/models/stories260K.gguf' })?.queryPrefix).toBe('')
    expect(
      settings({ EMBED_MODEL_URL: 'https://example.com/m/nomic-embed-text-v1.5.Q8_0.gguf' })?.queryPrefix,
    ).toBe('')
    expect(settings({ EMBED_MODEL_FILE: '/models/bge-small-zh-v1.5.gguf' })?.queryPrefix).toBe('')
  })
})
