import { createHash } from 'node:crypto'
import { zValidator } from '@hono/zod-validator'
import { Hono } from 'hono'
import type { z } from 'zod'
import { impactEstimateQuery, MAX_ESTIMATE_TOKENS, MAX_MODEL_NAME_CHARS } from '#contract/impact.ts'
import { ecoEngineFor } from '#server/features/eco-engine/instance.ts'
import { AppError } from '#server/lib/app-error.ts'
import { clientIp } from '#server/lib/client-ip.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { requireUser } from '#server/lib/session.ts'
import { toUserJson } from '#server/lib/user-json.ts'
import {
  estimateMessageImpact,
  ImpactInputError,
  impactCatalog,
  impactModels,
  KNOWN_MODELS,
  KNOWN_ZONES,
  providerForRequest,
} from './estimator.ts'
import { localEcoFigures } from './local-eco.ts'
import { plantTrees } from './queries.ts'

// The calculator of the how-it-works page asks once per model on each change: 240 a minute is
// 30 changes, far above a person and far below a scraper's appetite.
const ESTIMATE_LIMIT = { limit: 240, windowSeconds: 60 }

export function impactRoutes(deps: AppDeps) {
  const { db } = deps.database
  const catalog = impactCatalog()
  // The catalogue only changes with a new release of the data, i.e. a new build: one body and
  // one strong validator for the life of the process.
  const models = JSON.stringify(impactModels())
  const modelsEtag = `"${createHash('sha256').update(models).digest('base64url').slice(0, 27)}"`

  return new Hono<AppEnv>()
    .get('/impact/estimate', zValidator('query', impactEstimateQuery, rejectWithChoices), async (c) => {
      await enforceRateLimit(db, `impact-estimate:ip:${clientIp(c, deps.env.TRUST_PROXY)}`, ESTIMATE_LIMIT)
      const q = c.req.valid('query')
      try {
        const impact = estimateMessageImpact({
          provider: providerForRequest(q.model, q.provider),
          model: q.model,
          outputTokens: q.outputTokens,
          latencySeconds: q.latencySeconds ?? null,
          zone: q.zone ?? null,
        })
        return c.json(impact, 200)
      } catch (err) {
        if (err instanceof ImpactInputError) throw new AppError('bad_request:impact', err.message)
        throw err
      }
    })
    .get('/impact/local-eco', async (c) => {
      const engine = ecoEngineFor(deps.env, deps.log)
      return c.json(await localEcoFigures(db, engine, deps.env.LORIS_ZONE ?? null), 200)
    })
    .get('/impact/catalog', (c) => {
      c.header('Cache-Control', 'public, max-age=3600')
      return c.json(catalog, 200)
    })
    .get('/impact/models', (c) => {
      c.header('Cache-Control', 'public, max-age=3600')
      c.header('ETag', modelsEtag)
      if (etagMatches(c.req.header('If-None-Match'), modelsEtag)) return c.body(null, 304)
      c.header('Content-Type', 'application/json; charset=UTF-8')
      return c.body(models, 200)
    })
    .post('/user/plant-tree', requireUser(deps), async (c) => {
      const user = await plantTrees(db, c.get('user').id)
      if (!user) throw new AppError('not_found:user', 'This account no longer exists')
      return c.json(toUserJson(user, deps.env), 200)
    })
}

// If-None-Match holds one or more validators (or *); weak ones match too for a GET (RFC 9110 13.1.2).
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((v) => v.trim().replace(/^W\//, '') === etag)
}

// The query's first problem, worded with the valid choices (a typo should be fixable from the
// message alone); every issue still travels in `details`.
function rejectWithChoices(
  result: { success: true } | { success: false; error: { issues: z.core.$ZodIssue[] } },
  c: { req: { query(k: string): string | undefined } },
) {
  if (result.success) return
  const issues = result.error.issues
  const field = String(issues[0]?.path[0] ?? '')
  const messages: Record<string, () => string> = {
    model: () =>
      `model is required, at most ${MAX_MODEL_NAME_CHARS} characters: one of the ${KNOWN_MODELS.length} catalogued models (GET /api/impact/models), e.g. gpt-4o or gemini-2.5-flash.`,
    provider: () => `provider, when given, is a provider id such as openai, google or anthropic.`,
    outputTokens: () =>
      `outputTokens must be a whole number from 0 to ${MAX_ESTIMATE_TOKENS.toLocaleString('en-US')}, got ${JSON.stringify(c.req.query('outputTokens') ?? null)}.`,
    latencySeconds: () =>
      `latencySeconds must be a number of seconds > 0, or left out; got ${JSON.stringify(c.req.query('latencySeconds'))}.`,
    zone: () =>
      `Unknown electricity zone ${JSON.stringify(c.req.query('zone'))}. Use WOR (world mix) or an ISO 3166 alpha-3 code: ${KNOWN_ZONES.join(', ')}.`,
  }
  const message = messages[field]?.() ?? issues[0]?.message ?? 'Invalid input'
  throw new AppError('bad_request:input', message, { details: issues })
}
