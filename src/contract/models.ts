import { z } from 'zod'
import { CHAT_MODELS } from './chat-models.ts'

/**
 * Who answered a reply (its stored chatModel): the three modes, or a model of the catalogue by its
 * provider's family (spec 4's borders: black for chatgpt, green for loris, white for the others).
 */
export const REPLY_FAMILIES = [...CHAT_MODELS, 'claude', 'mistral', 'other'] as const
export const replyFamilySchema = z.enum(REPLY_FAMILIES)
export type ReplyFamily = (typeof REPLY_FAMILIES)[number]

/** The reply length a model's "typical footprint per reply" is given for, in generated tokens. */
export const TYPICAL_REPLY_TOKENS = 400

/** GET /api/models: the catalogue's models this person may use, each with its footprint. */
export const catalogueModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  family: replyFamilySchema,
  /** anthropic, mistral, openai, google, or the name of an OpenAI-compatible endpoint. */
  provider: z.string(),
  capabilities: z.object({ vision: z.boolean(), tools: z.boolean(), contextTokens: z.number().int() }),
  /** Grams CO2e per generated token (midpoint), null when the method cannot price the model. */
  gramsPerToken: z.number().nonnegative().nullable(),
  /** Grams CO2e of a typical reply (TYPICAL_REPLY_TOKENS tokens). */
  typicalReplyGrams: z.number().nonnegative().nullable(),
  /** In the eco mode's routing pool. */
  eco: z.boolean(),
})
export type CatalogueModelJson = z.infer<typeof catalogueModelSchema>

export const modelsResponseSchema = z.object({
  models: z.array(catalogueModelSchema),
  /** The three modes' standard models with their footprint, for the composer's estimate. */
  modes: z.array(
    z.object({
      mode: z.enum(CHAT_MODELS),
      modelId: z.string().nullable(),
      gramsPerToken: z.number().nonnegative().nullable(),
    }),
  ),
})
export type ModelsResponse = z.infer<typeof modelsResponseSchema>
