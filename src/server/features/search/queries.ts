// Full-text search over a user's messages: their text, replies and the titles of the replies'
// sources (messages.search_vector) and the text read from files sent with them
// (uploads.search_vector). Plain SQL that PGlite and PostgreSQL run alike; every piece of user
// input is a parameter (decision 013).
import { type SQL, sql } from 'drizzle-orm'
import { MATCH_END, MATCH_START } from '#contract/search.ts'
import type { Db } from '#server/db/client.ts'
import type { SearchTerms } from './tsquery.ts'

export interface SearchCursor {
  rank: string
  at: string
  id: string
}

export interface SearchRow {
  message_id: string
  thread_id: string | null
  thread_title: string | null
  source: 'message' | 'attachment'
  rank: string
  at: string
  headline: string | null
}

/**
 * Ranking reads every candidate's vector, so a very common word would rank thousands of rows:
 * only the most recent matches are ranked (decision 013), which keeps a search fast at any size.
 */
export const CANDIDATES = 1000

const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=24, MinWords=10, MaxFragments=2, FragmentDelimiter=" … "`

function tsquery(terms: SearchTerms): SQL | null {
  const web = /[\p{L}\p{N}_]/u.test(terms.web) ? sql`websearch_to_tsquery('simple', ${terms.web})` : null
  const prefix = terms.prefix ? sql`to_tsquery('simple', ${`${terms.prefix}:*`})` : null
  if (web && prefix) return sql`(${web} && ${prefix})`
  return web ?? prefix
}

// The delimiters cannot come from the stored text: they are removed before ts_headline runs.
const stripMarks = (text: SQL) => sql`replace(replace(${text}, ${MATCH_START}, ''), ${MATCH_END}, '')`

/** The titles of a reply's sources (indexed with its text, schema/chat.ts), for its headline. */
const sourceTitles = sql`coalesce((select string_agg(t #>> '{}', ' · ')
  from jsonb_array_elements(jsonb_path_query_array(coalesce(m.sources, '[]'::jsonb), '$[*].title')) t), '')`

/** One page (limit + 1 rows, so the caller knows whether there is a next), best rank first. */
export async function searchMessages(
  db: Db,
  userId: string,
  terms: SearchTerms,
  opts: { limit: number; after?: SearchCursor },
): Promise<SearchRow[]> {
  const query = tsquery(terms)
  if (!query) return []
  const after = opts.after
    ? sql`and (b.rank, m.created_at, m.id) < (${opts.after.rank}::real, ${opts.after.at}::timestamptz, ${opts.after.id}::uuid)`
    : sql``
  const result = await db.execute(sql`
    with q as (select ${query} as query),
    -- The newest matches first (a GIN bitmap, then a sort of ids on created_at), and only then
    -- the rank: ts_rank reads the whole vector, so it runs on at most CANDIDATES rows a source.
    recent_messages as (
      select m.id
      from messages m, q
      where m.user_id = ${userId} and m.search_vector @@ q.query
      order by m.created_at desc
      limit ${CANDIDATES}
    ),
    recent_files as (
      select m.id, u.id as upload_id
      from messages m join uploads u on u.id = m.upload_id, q
      where m.user_id = ${userId} and u.user_id = ${userId} and u.search_vector @@ q.query
      order by m.created_at desc
      limit ${CANDIDATES}
    ),
    hits as (
      select r.id, ts_rank(m.search_vector, q.query) as rank, 'message' as source
      from recent_messages r join messages m on m.id = r.id, q
      union all
      select r.id, ts_rank(u.search_vector, q.query) as rank, 'attachment' as source
      from recent_files r join uploads u on u.id = r.upload_id, q
    ),
    best as (
      select distinct on (id) id, rank, source from hits order by id, rank desc, source desc
    ),
    page as (
      select b.id, b.rank, b.source, m.created_at
      from best b join messages m on m.id = b.id
      where true ${after}
      order by b.rank desc, m.created_at desc, m.id desc
      limit ${opts.limit + 1}
    )
    select
      p.id as message_id,
      coalesce(t.id, d.id) as thread_id,
      coalesce(t.title, d.title) as thread_title,
      p.source,
      p.rank::text as rank,
      to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
      ts_headline(
        'simple',
        ${stripMarks(sql`case p.source when 'attachment' then coalesce(u.extracted_text, '') else m.content || E'\n' || m.response || E'\n' || ${sourceTitles} end`)},
        q.query,
        ${HEADLINE_OPTIONS}
      ) as headline
    from page p
    join messages m on m.id = p.id
    left join threads t on t.id = m.thread_id
    left join threads d on m.thread_id is null and d.user_id = ${userId} and d.is_default
    left join uploads u on u.id = m.upload_id
    cross join q
    order by p.rank desc, p.created_at desc, p.id desc
  `)
  return (result as unknown as { rows: SearchRow[] }).rows
}
