import { Hono } from 'hono'
import { type SearchResponse, searchQuery } from '#contract/search.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { isExactTimestamp, isUuid } from '#server/lib/cursor.ts'
import { requireUser } from '#server/lib/session.ts'
import { validate } from '#server/lib/validate.ts'
import { type SearchCursor, searchMessages } from './queries.ts'
import { snippetParts } from './snippet.ts'
import { searchTerms } from './tsquery.ts'

const encodeCursor = (c: SearchCursor) => Buffer.from(JSON.stringify(c)).toString('base64url')

/**
 * A rank as PostgreSQL printed it (a `real`, which ts_rank gives between 0 and 1): a number
 * beyond what a `real` holds, such as 1e39, would fail as the statement's parameter (a 500).
 */
const isRank = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^\d+(\.\d+)?(e-?\d+)?$/.test(value) &&
  (Number(value) === 0 || (Number(value) >= 1e-30 && Number(value) <= 1e30))

/** A cursor is ours or refused: its parts become typed SQL parameters. */
function decodeCursor(raw: string): SearchCursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<SearchCursor>
    if (isRank(c.rank) && isExactTimestamp(c.at) && isUuid(c.id)) return { rank: c.rank, at: c.at, id: c.id }
  } catch {}
  throw new AppError('bad_request:cursor', 'This page of results is no longer valid: search again')
}

export function searchRoutes(deps: AppDeps) {
  const { db } = deps.database
  return new Hono<AppEnv>().get('/search', requireUser(deps), validate('query', searchQuery), async (c) => {
    const { q, cursor, limit } = c.req.valid('query')
    const rows = await searchMessages(db, c.get('user').id, searchTerms(q), {
      limit,
      after: cursor ? decodeCursor(cursor) : undefined,
    })
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    const body: SearchResponse = {
      results: page
        .filter((r) => r.thread_id)
        .map((r) => ({
          threadId: r.thread_id as string,
          messageId: r.message_id,
          threadTitle: r.thread_title ?? '',
          createdAt: new Date(r.at).toISOString(),
          source: r.source,
          snippet: snippetParts(r.headline ?? ''),
        })),
      nextCursor:
        rows.length > limit && last
          ? encodeCursor({ rank: last.rank, at: last.at, id: last.message_id })
          : null,
    }
    return c.json(body, 200)
  })
}
