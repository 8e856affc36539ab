// What a resolved model can do beyond text. One place to ask, until the catalogue says it per model.
import type { ResolvedModel } from './registry.ts'

/**
 * Whether the model calls tools itself (web_search, read_link, MCP tools through the AI SDK).
 * The hosted providers' models do; our own eco model (in process or an endpoint) is given the
 * lookups done first instead (decision 065).
 */
export function callsTools(model: Pick<ResolvedModel, 'provider'>): boolean {
  return model.provider === 'google' || model.provider === 'openai'
}
