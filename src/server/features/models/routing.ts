// The eco mode's routing (docs/decisions/066): each send goes to the smallest model of the eco
// pool that can do it. The pool is the eco mode's own model (the in-process engine or the eco
// endpoint) then the catalogue's models marked `eco`, smallest footprint first. Capability first
// (an image needs vision, a long prompt a context that fits, tools a tool-capable model), then a
// difficulty judged here from the text alone, without calling any model. Pure: no I/O.
import { modelName } from '#contract/model-names.ts'
import { CHARS_PER_TOKEN } from '#server/features/impact/message-impact.ts'
import type { ModelCapabilities } from './registry.ts'

export interface PoolModel {
  modelId: string
  capabilities: ModelCapabilities
  /** Grams CO2e per generated token (midpoint); null when it cannot be priced. */
  gramsPerToken: number | null
}

export interface RouteRequest {
  text: string
  /** An image goes with the message. */
  image: boolean
  /** Characters of text sent besides the message (an attached document's words). */
  extraChars: number
  /** Tools are offered with this send. */
  tools: boolean
  /** "Ask a larger model": the model that answered the revised reply; the route goes above it. */
  largerThan: string | null
}

export interface Route {
  /** Index in the pool. */
  index: number
  /** In words, for the reply's footer. */
  reason: string
}

export interface Difficulty {
  /** 0: the smallest capable model will do; each step one model up the pool. */
  steps: number
  /** The signals found, in words ('code', 'math'). */
  signals: string[]
}

/** Beyond this the message is long: a small model loses the thread of it. */
const LONG_CHARS = 1_500
const CODE = /```|^\s{4}\S|\b(function|def|class|import|return|const|SELECT|#include)\b|[{};]\s*$/m
const MATH =
  /\$[^$]+\$|\\(frac|sum|int|sqrt)|\b(prove|proof|integral|derivative|equation|theorem|matrix)\b|\d\s*[+\-*/^=]\s*\d/i

/**
 * How hard a message looks, from signals a small model handles badly: length, code, math, and a
 * language other than English (small local models are trained mostly on English).
 */
export function judgeDifficulty(text: string): Difficulty {
  const signals: string[] = []
  if (text.length > LONG_CHARS) signals.push('long message')
  if (CODE.test(text)) signals.push('code')
  if (MATH.test(text)) signals.push('math')
  const letters = text.match(/\p{L}/gu) ?? []
  const ascii = letters.filter((l) => /[A-Za-z]/.test(l)).length
  if (letters.length >= 8 && ascii / letters.length < 0.8) signals.push('language')
  return { steps: signals.length, signals }
}

/** The pool's order: smallest footprint first, unpriced models last; the eco mode's own stays first. */
export function orderPool(own: PoolModel, others: PoolModel[]): PoolModel[] {
  const rank = (m: PoolModel) => m.gramsPerToken ?? Number.POSITIVE_INFINITY
  return [own, ...others.filter((m) => m.modelId !== own.modelId).sort((a, b) => rank(a) - rank(b))]
}

/** Which model of `pool` (orderPool's) answers `request`, and why in words. */
export function route(pool: readonly PoolModel[], request: RouteRequest): Route {
  const promptTokens = Math.ceil((request.text.length + request.extraChars) / CHARS_PER_TOKEN)
  const needs: { test: (m: PoolModel) => boolean; why: string }[] = []
  if (request.image) needs.push({ test: (m) => m.capabilities.vision, why: 'image: sent to a vision model' })
  // Half the context for the prompt: the other half is the history and the reply.
  if (promptTokens > (pool[0]?.capabilities.contextTokens ?? 0) / 2)
    needs.push({
      test: (m) => m.capabilities.contextTokens / 2 >= promptTokens,
      why: 'long prompt: sent to a model whose context fits it',
    })
  if (request.tools)
    needs.push({ test: (m) => m.capabilities.tools, why: 'tools: sent to a tool-capable model' })
  const capable = pool.map((m, index) => ({ m, index })).filter(({ m }) => needs.every((n) => n.test(m)))
  // Nothing can do it all: the eco mode's own model answers what it can.
  if (capable.length === 0)
    return { index: 0, reason: 'no model of the pool can do all of it: answered by the eco model' }
  if (request.largerThan !== null) {
    const at = pool.findIndex((m) => m.modelId === request.largerThan)
    const above = capable.find(({ index }) => index > at)
    const chosen = above ?? capable[capable.length - 1]
    if (!chosen) return { index: 0, reason: 'asked for a larger model' }
    return {
      index: chosen.index,
      reason: above ? 'asked for a larger model' : 'asked for a larger model: this is the largest one',
    }
  }
  const { steps, signals } = judgeDifficulty(request.text)
  const chosen = capable[Math.min(steps, capable.length - 1)] ?? capable[0]
  if (!chosen) return { index: 0, reason: 'answered by the eco model' }
  const capability = needs.map((n) => n.why)
  if (capability.length > 0 && steps === 0) return { index: chosen.index, reason: capability.join('; ') }
  if (steps > 0) {
    const hard = `${signals.join(', ')}: sent to a larger model`
    return { index: chosen.index, reason: [...capability, hard].join('; ') }
  }
  return {
    index: chosen.index,
    reason:
      chosen.index === 0
        ? 'short and simple: answered by the local model'
        : 'sent to the smallest model that fits',
  }
}

/** The footer's saving: the pool's largest priced model for as many tokens, less the one that answered. */
export function routingSaving(
  pool: readonly PoolModel[],
  answered: PoolModel,
  outputTokens: number,
): { against: string; savedGrams: number } | null {
  const largest = pool.findLast((m) => m.gramsPerToken !== null)
  if (!largest || largest.gramsPerToken === null || answered.gramsPerToken === null) return null
  return {
    against: modelName(largest.modelId),
    savedGrams: Math.max(0, (largest.gramsPerToken - answered.gramsPerToken) * outputTokens),
  }
}
