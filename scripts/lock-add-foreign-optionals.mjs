// The npm registry this project is developed against serves no builds for other platforms
// (darwin, win32, musl, android...), so `npm install` leaves those optional packages out of
// package-lock.json and `npm ci` then refuses the lock. This adds them back as optional,
// platform-tagged entries that npm ci skips on Linux. Run after changing dependencies:
//   node scripts/lock-add-foreign-optionals.mjs <missing package names...>
import { readFileSync, writeFileSync } from 'node:fs'

const lockPath = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(lockPath, 'utf8'))
const packages = lock.packages

function platformOf(name) {
  const os = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'sunos', 'aix'].find((o) =>
    name.includes(o),
  )
  const cpu = ['arm64', 'x64', 'arm', 'ia32', 'wasm32', 'ppc64', 's390x', 'riscv64'].find((c) =>
    new RegExp(`(^|-)${c}($|-)`).test(name.split('/').pop()),
  )
  const libc = /musl/.test(name) ? ['musl'] : undefined
  return { os: os ? [os] : undefined, cpu: cpu ? [cpu] : undefined, libc }
}

for (const name of process.argv.slice(2)) {
  const key = `node_modules/${name}`
  if (packages[key]) continue
  const parentEntry = Object.entries(packages).find(([, p]) => p.optionalDependencies?.[name])
  if (!parentEntry) throw new Error(`no package in the lock depends on ${name}`)
  const [, parent] = parentEntry
  const { os, cpu, libc } = platformOf(name)
  packages[key] = {
    version: parent.optionalDependencies[name].replace(/^[\^~=]/, ''),
    ...(parent.dev ? { dev: true } : {}),
    optional: true,
    ...(os && !name.includes('wasm32') ? { os } : {}),
    ...(cpu ? { cpu } : {}),
    ...(libc ? { libc } : {}),
  }
  console.info(`added ${key}@${packages[key].version}`, os ?? '', cpu ?? '')
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
)
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`)
