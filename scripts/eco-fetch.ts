// `npm run eco:fetch`: fetches the models the server would fetch on first use (the eco model and
// the embedding model that ranks project knowledge), exactly as the server would (DATA_DIR/models/,
// Range resume, sha256 check, atomic rename), so neither the first eco reply nor the first
// retrieval waits. Reads the same environment as the server (decisions 020 and 068).
import { parseEnv } from '#server/env.ts'
import { embedderSettings } from '#server/features/eco-engine/embedder.ts'
import { fetchModel, ModelFetchError } from '#server/features/eco-engine/model-fetch.ts'
import { ecoEngineSettings, ecoSource } from '#server/features/eco-engine/settings.ts'

interface Wanted {
  label: string
  url: string
  file: string
  sha256: string | null
  expectedBytes: number | null
  /** The variables an operator sets to use another file or place it by hand. */
  vars: { url: string; sha256: string; file: string }
}

const env = parseEnv()
const wanted: Wanted[] = []

const source = ecoSource(env)
if (source === 'download') {
  const s = ecoEngineSettings(env)
  wanted.push({
    label: 'the eco model',
    url: s.modelUrl as string,
    file: s.modelFile,
    sha256: s.sha256,
    expectedBytes: s.expectedBytes,
    vars: { url: 'ECO_MODEL_URL', sha256: 'ECO_MODEL_SHA256', file: 'ECO_MODEL_FILE' },
  })
} else {
  const why: Record<string, string> = {
    endpoint: 'the eco mode uses the endpoint in ECO_BASE_URL/ECO_MODEL',
    partial: 'ECO_BASE_URL and ECO_MODEL are half set: set both, or neither',
    file: `ECO_MODEL_FILE is set (${env.ECO_MODEL_FILE}): that file is used as it is`,
    none: 'ECO_ENGINE=off',
  }
  console.info(`The eco model: nothing to fetch, ${why[source]}.`)
}

const embed = embedderSettings(env)
if (embed?.modelUrl) {
  wanted.push({
    label: 'the embedding model',
    url: embed.modelUrl,
    file: embed.modelFile,
    sha256: embed.sha256,
    expectedBytes: null,
    vars: { url: 'EMBED_MODEL_URL', sha256: 'EMBED_MODEL_SHA256', file: 'EMBED_MODEL_FILE' },
  })
} else {
  const why = embed ? `EMBED_MODEL_FILE is set (${embed.modelFile})` : 'EMBED_ENGINE=off'
  console.info(`The embedding model: nothing to fetch, ${why}.`)
}

const mb = (b: number) => `${(b / 1_000_000).toFixed(1)} MB`

async function fetchOne(w: Wanted): Promise<boolean> {
  console.info(`Fetching ${w.label}: ${w.url}\n      to ${w.file}`)
  let lastShown = -1
  try {
    const { bytes } = await fetchModel({
      url: w.url,
      file: w.file,
      sha256: w.sha256,
      onProgress: ({ bytes, totalBytes }) => {
        const total = totalBytes ?? w.expectedBytes
        const percent = total ? Math.floor((bytes / total) * 100) : null
        const shown = percent === null ? Math.floor(bytes / 50_000_000) : Math.floor(percent / 5) * 5
        if (shown === lastShown) return
        lastShown = shown
        console.info(
          percent === null ? `  ${mb(bytes)}` : `  ${percent}% (${mb(bytes)} of ${mb(total as number)})`,
        )
      },
    })
    console.info(`Done: ${mb(bytes)}, sha256 checked.`)
    return true
  } catch (err) {
    if (!(err instanceof ModelFetchError)) throw err
    console.error(`Could not fetch ${w.label}: ${err.message}`)
    const hints: Record<string, string> = {
      offline: `Run it again to resume from where it stopped, or place the file yourself and set ${w.vars.file}.`,
      checksum: `The partial file was removed. Check ${w.vars.url} and ${w.vars.sha256}.`,
      http: `Check ${w.vars.url}, or place the file yourself and set ${w.vars.file}.`,
      disk: 'Make DATA_DIR writable, with room for the model.',
    }
    console.error(hints[err.kind])
    return false
  }
}

let ok = true
for (const w of wanted) ok = (await fetchOne(w)) && ok
process.exit(ok ? 0 : 1)
