// Full-text search over one user's 10,000 messages (decision 013): p50 and p99 of the search query
// on embedded PGlite and on a throwaway PostgreSQL server. Goal: p99 under 50 ms on PostgreSQL.
import { sql } from 'drizzle-orm'
import { type Database, openDatabase } from '#server/db/client.ts'
import { messages, threads, users } from '#server/db/schema/index.ts'
import { searchMessages } from '#server/features/search/queries.ts'
import { searchTerms } from '#server/features/search/tsquery.ts'
import { startPostgres } from '../scripts/postgres-server.mjs'

const MESSAGES = 10_000
const THREADS = 100
const SEARCHES = 200
const GOAL_P99_MS = 50
const WORDS =
  'loris forest primate night eyes borneo java climate carbon energy solar wind river garden budget travel lisbon recipe bread coffee python rust database index query music guitar piano history rome paris physics quantum energy model token reply summary report invoice meeting schedule holiday mountain ocean whale bird song'.split(
    ' ',
  )
const QUERIES = [
  'loris',
  'solar energy',
  'borneo fore',
  '"climate carbon"',
  'guitar -piano',
  'qua',
  'rome OR paris',
  'whale song',
]

// Real text follows Zipf's law: a few words are everywhere, most are rare. The named words are
// the most common; the rest of the vocabulary is made-up words of 4 to 9 letters.
const VOCABULARY = [
  ...WORDS,
  ...Array.from({ length: 5000 }, (_, i) => {
    let x = (i + 1) * 40503
    let w = ''
    for (let k = 0; k < 4 + (i % 6); k++) {
      x = (x * 1103515245 + 12345) >>> 0
      w += 'abcdefghijklmnopqrstuvwxyz'[x % 26]
    }
    return w
  }),
]
const HARMONIC = VOCABULARY.reduce((sum, _, i) => sum + 1 / (i + 1), 0)

/** Deterministic pseudo-random Zipf-distributed words, so both databases hold the same text. */
function sentence(seed: number, words: number): string {
  let x = (seed * 2654435761) >>> 0
  const out: string[] = []
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    let target = (x / 2 ** 32) * HARMONIC
    let rank = 0
    while (rank < VOCABULARY.length - 1 && target > 1 / (rank + 1)) {
      target -= 1 / (rank + 1)
      rank++
    }
    out.push(VOCABULARY[rank] as string)
  }
  return out.join(' ')
}

async function seed(database: Database): Promise<string> {
  const { db } = database
  const [user] = await db
    .insert(users)
    .values({ email: `bench-${Date.now()}@example.com` })
    .returning()
  const userId = user!.id
  // Another user's messages too, so the user filter has work to do.
  const [other] = await db
    .insert(users)
    .values({ email: `other-${Date.now()}@example.com` })
    .returning()
  for (const owner of [userId, other!.id]) {
    const rows = await db
      .insert(threads)
      .values(Array.from({ length: THREADS }, (_, i) => ({ userId: owner, title: `Thread ${i}` })))
      .returning({ id: threads.id })
    const count = owner === userId ? MESSAGES : MESSAGES / 4
    for (let start = 0; start < count; start += 500) {
      await db.insert(messages).values(
        Array.from({ length: Math.min(500, count - start) }, (_, j) => {
          const i = start + j
          return {
            userId: owner,
            threadId: rows[i % THREADS]!.id,
            content: sentence(i, 12),
            response: sentence(i + 7, 120),
            // One reply in four cites pages, as a search-backed one does: their titles are indexed.
            sources:
              i % 4 === 0
                ? [1, 2, 3].map((k) => ({
                    url: `https://e.example/${i}/${k}`,
                    title: sentence(i + k * 13, 8),
                  }))
                : null,
            chatModel: 'gemini' as const,
            status: 'complete' as const,
            createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
          }
        }),
      )
    }
  }
  await db.execute(sql`analyze`)
  return userId
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0

async function measure(name: string, database: Database, goal: boolean) {
  const userId = await seed(database)
  const times: number[] = []
  for (let i = 0; i < SEARCHES + 20; i++) {
    const q = QUERIES[i % QUERIES.length] as string
    const started = performance.now()
    await searchMessages(database.db, userId, searchTerms(q), { limit: 20 })
    if (i >= 20) times.push(performance.now() - started) // the first rounds warm caches
  }
  if (process.env.BENCH_VERBOSE) {
    for (const q of QUERIES) {
      const started = performance.now()
      const rows = await searchMessages(database.db, userId, searchTerms(q), { limit: 20 })
      console.info(`  ${q}: ${(performance.now() - started).toFixed(1)} ms, ${rows.length} rows`)
    }
  }
  times.sort((a, b) => a - b)
  const p50 = pct(times, 50)
  const p99 = pct(times, 99)
  const verdict = goal ? `  (goal p99 < ${GOAL_P99_MS} ms: ${p99 < GOAL_P99_MS ? 'met' : 'NOT met'})` : ''
  console.info(
    `${name.padEnd(10)} ${MESSAGES} messages, ${SEARCHES} searches: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms${verdict}`,
  )
}

export async function run(): Promise<void> {
  const pglite = await openDatabase({})
  try {
    await measure('PGlite', pglite, false)
  } finally {
    await pglite.close()
  }
  let server: { url: string; stop(): void } | undefined
  try {
    server = (await startPostgres()) as { url: string; stop(): void }
  } catch (err) {
    console.info(`PostgreSQL  skipped: ${(err as Error).message}`)
    return
  }
  try {
    const database = await openDatabase({ databaseUrl: server.url })
    try {
      await measure('PostgreSQL', database, true)
    } finally {
      await database.close()
    }
  } finally {
    server.stop()
  }
}
