// pretest: the Debian packages the tests need. Installs what is missing when running as root,
// otherwise prints the exact command and stops.
import { execFileSync, spawnSync } from 'node:child_process'

// package -> why the tests need it
const REQUIRED = {
  chromium: 'browser tests (playwright-core drives /usr/bin/chromium)',
  postgresql: 'the API suite against a real PostgreSQL server (npm run test:pg)',
  ffmpeg: 'decoding recorded audio for offline transcription',
  pocketsphinx: 'offline speech-to-text engine',
  'pocketsphinx-en-us': 'the English model for pocketsphinx',
}

function installed(pkg) {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' })
  return r.status === 0 && r.stdout.includes('install ok installed')
}

if (process.platform !== 'linux' || spawnSync('dpkg-query', ['--version']).status !== 0) {
  console.warn(
    'check-system-packages: not a Debian system; make sure these are installed:',
    Object.keys(REQUIRED).join(', '),
  )
  process.exit(0)
}

const missing = Object.keys(REQUIRED).filter((p) => !installed(p))
if (missing.length === 0) process.exit(0)

const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`
if (process.getuid?.() !== 0) {
  console.error('The tests need these Debian packages:')
  for (const p of missing) console.error(`  ${p}: ${REQUIRED[p]}`)
  console.error(`\nInstall them with:\n  sudo ${command}\n`)
  process.exit(1)
}
console.info(`Installing missing Debian packages: ${missing.join(', ')}`)
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
  stdio: 'inherit',
  env,
})
