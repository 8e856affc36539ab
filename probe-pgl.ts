import { PGlite, protocol, parse } from '@electric-sql/pglite'
const db = await PGlite.create()
await db.exec(`create table s (id text primary key, user_id uuid not null, expires_at timestamptz not null, data jsonb);
insert into s select 'k'||i, gen_random_uuid(), now() + interval '1 day', '{"a":1}' from generate_series(1,2000) i;`)
const sql = 'select "id", "user_id", "expires_at", "data" from "s" where ("s"."id" = $1 and "s"."expires_at" > $2)'
const N = 3000
const t = () => process.cpuUsage()
const el = (a: NodeJS.CpuUsage) => { const b = process.cpuUsage(a); return (b.user + b.system) / 1000 / N }
for (let r = 0; r < 2; r++) {
  let a = t()
  for (let i = 0; i < N; i++) await db.query(sql, ['k' + (i % 2000 + 1), new Date().toISOString()])
  console.log('query', el(a).toFixed(3), 'ms')
  const { serialize } = protocol
  const first = await db.execProtocol(concat([serialize.parse({ name: 'st1', text: sql }), serialize.describe({ type: 'S', name: 'st1' }), serialize.sync()]), { syncToFs: false })
  const types = parse.parseDescribeStatementResults(first.messages)
  a = t()
  let rows = 0
  for (let i = 0; i < N; i++) {
    const values = ['k' + (i % 2000 + 1), new Date().toISOString()].map((v, j) => (db as any).serializers[types[j]!]?.(v) ?? String(v))
    const bytes = concat([serialize.bind({ statement: 'st1', values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()])
    const res = await db.execProtocol(bytes, { syncToFs: false })
    const [out] = parse.parseResults(res.messages, (db as any).parsers, {})
    rows += out!.rows.length
  }
  console.log('named', el(a).toFixed(3), 'ms', rows)
  await db.exec('deallocate all')
}
function concat(parts: Uint8Array[]) { const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0)); let o = 0; for (const p of parts) { out.set(p, o); o += p.length } return out }
