// `npm run eco:fetch`: fetches the Loris eco model ahead of time, exactly as the server would on
// first use (DATA_DIR/models/, Range resume, sha256 check, atomic rename), so the first eco reply
// does not wait. Reads the same environment as the server (docs/decisions/020-eco-engine.md).
import { parseEnv } from '#server/env.ts'
import { fetchModel, ModelFetchError } from '#server/features/eco-engine/model-fetch.ts'
import { ecoEngineSettings, ecoSource } from '#server/features/eco-engine/settings.ts'

const env = parseEnv()
const source = ecoSource(env)
if (source !== 'download') {
  const why: Record<string, string> = {
    endpoint: 'the eco mode uses the endpoint in ECO_BASE_URL/ECO_MODEL',
    partial: 'ECO_BASE_URL and ECO_MODEL are half set: set both, or neither',
    file: `ECO_MODEL_FILE is set (${env.ECO_MODEL_FILE}): that file is used as it is`,
    none: 'ECO_ENGINE=off',
  }
  console.info(`Nothing to fetch: ${why[source]}.`)
  process.exit(0)
}
const settings = ecoEngineSettings(env)
console.info(`Fetching ${settings.modelUrl}\n      to ${settings.modelFile}`)
let lastShown = -1
try {
  const { bytes } = await fetchModel({
    url: settings.modelUrl as string,
    file: settings.modelFile,
    sha256: settings.sha256,
    onProgress: ({ bytes, totalBytes }) => {
      const total = totalBytes ?? settings.expectedBytes
      const percent = total ? Math.floor((bytes / total) * 100) : null
      const shown = percent === null ? Math.floor(bytes / 50_000_000) : Math.floor(percent / 5) * 5
      if (shown === lastShown) return
      lastShown = shown
      const mb = (b: number) => `${(b / 1_000_000).toFixed(1)} MB`
      console.info(
        percent === null ? `  ${mb(bytes)}` : `  ${percent}% (${mb(bytes)} of ${mb(total as number)})`,
      )
    },
  })
  console.info(`Done: ${(bytes / 1_000_000).toFixed(1)} MB, sha256 checked.`)
} catch (err) {
  if (!(err instanceof ModelFetchError)) throw err
  console.error(`Could not fetch the eco model: ${err.message}`)
  const hints: Record<string, string> = {
    offline:
      'Run it again to resume from where it stopped, or place the file yourself and set ECO_MODEL_FILE.',
    checksum: 'The partial file was removed. Check ECO_MODEL_URL and ECO_MODEL_SHA256.',
    http: 'Check ECO_MODEL_URL, or place the file yourself and set ECO_MODEL_FILE.',
    disk: 'Make DATA_DIR writable, with room for the model.',
  }
  console.error(hints[err.kind])
  process.exit(1)
}
