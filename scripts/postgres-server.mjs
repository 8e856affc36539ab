// Starts a throwaway PostgreSQL cluster on a loopback port (Debian's server binaries), for the
// API suite against a real server. As root it runs the server as the `postgres` user.
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort } from './free-port.mjs'

function pgBinDir() {
  const base = '/usr/lib/postgresql'
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : []
  const dir = versions.map((v) => path.join(base, v, 'bin')).find((d) => existsSync(path.join(d, 'initdb')))
  if (!dir) throw new Error('PostgreSQL server binaries not found: apt-get install postgresql')
  return dir
}

export async function startPostgres() {
  const bin = pgBinDir()
  const root = mkdtempSync(path.join(tmpdir(), 'loris-pg-'))
  chmodSync(root, 0o777)
  const asRoot = process.getuid?.() === 0
  const run = (cmd, args) => {
    const full = path.join(bin, cmd)
    const r = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' })
      : spawnSync(full, args, { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`)
  }
  const data = path.join(root, 'data')
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  const port = await freePort()
  run('pg_ctl', [
    '-D',
    data,
    '-w',
    '-l',
    path.join(root, 'server.log'),
    '-o',
    `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    'start',
  ])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', 'stop'])
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    },
  }
}

// `node scripts/postgres-server.mjs` on its own: start one and print its URL (manual testing).
if (import.meta.url === `file://${process.argv[1]}`) {
  const pg = await startPostgres()
  console.info(pg.url)
  const stop = () => {
    pg.stop()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  execFileSync('sleep', ['infinity'], { stdio: 'ignore' })
}
