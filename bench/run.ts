// `npm run bench [name...]`: runs every bench, or the named ones. Add a bench by listing it here;
// each is a module exporting `run(): Promise<void>` that prints its own results. Loopback only.
// A module (not a script), so the loop below may await at top level.
export {}

const benches: Record<string, () => Promise<{ run: () => Promise<void> }>> = {
  load: () => import('./load.ts'),
  'landing-size': () => import('./landing-size.ts'),
  search: () => import('./search.ts'),
  'import-stall': () => import('./import-stall.ts'),
  'eco-engine': () => import('./eco-engine.ts'),
  'big-thread': () => import('./big-thread.ts'),
}

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'))
const unknown = wanted.filter((name) => !(name in benches))
if (unknown.length > 0) {
  console.error(`Unknown bench: ${unknown.join(', ')}. Known: ${Object.keys(benches).join(', ')}`)
  process.exit(2)
}

for (const name of wanted.length > 0 ? wanted : Object.keys(benches)) {
  console.info(`\n== bench: ${name} ==`)
  const started = performance.now()
  await (await benches[name]!()).run()
  console.info(`== ${name} took ${((performance.now() - started) / 1000).toFixed(1)} s ==`)
}
process.exit(0)
