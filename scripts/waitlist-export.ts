// `npm run waitlist:export [-- --out file.csv]`: writes the waitlist as CSV (email,joined_at),
// oldest first, from the configured database (DATABASE_URL, or the PGlite files in DATA_DIR).
// PGlite allows one process at a time: with DATA_DIR, stop the server before exporting.
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { openDatabase } from '#server/db/client.ts'
import { parseEnv } from '#server/env.ts'
import { toCsv } from '#server/features/waitlist/csv.ts'
import { listWaitlist } from '#server/features/waitlist/queries.ts'

const { values } = parseArgs({ options: { out: { type: 'string', short: 'o' } } })
const env = parseEnv()
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
try {
  const rows = await listWaitlist(database.db)
  const csv = toCsv(rows)
  if (values.out) {
    writeFileSync(values.out, csv)
    console.error(`Wrote ${rows.length} waitlist entries to ${values.out}`)
  } else {
    process.stdout.write(csv)
  }
} finally {
  await database.close()
}
