// File-reading limits (decision 008) against the built server (dist/server/main.js with dist/server/parse-worker.js), as
// `npm start` runs it: uploads are read by the bundled parse worker, which enforces the limits
// while the server keeps answering, and DATA_DIR with its uploads is the server user's alone.
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileLimitErrors } from '#contract/errors.ts'
import { hugeSheetXlsx, MB } from '../helpers/bombs.ts'
import { type AiStandIn, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { aiProviderEnv } from './support/chat-harness.ts'

let standIn: AiStandIn
let server: AppServer
let cookie: string

beforeAll(async () => {
  standIn = await startAiStandIn()
  server = await startAppServer(aiProviderEnv(standIn))
  const res = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `limits-${Date.now()}@example.com`, password: 'a strong password' }),
  })
  expect(res.status).toBe(201)
  cookie = (res.headers.getSetCookie().find((c) => c.startsWith('loris_session=')) ?? '').split(';')[0] ?? ''
})
afterAll(async () => {
  await server?.stop()
  await standIn?.close()
})

function send(field: string, name: string, bytes: Uint8Array) {
  const body = new FormData()
  body.set('isEcoMode', 'false')
  body.set('useOpenAI', 'false')
  body.set(field, new File([bytes as Uint8Array<ArrayBuffer>], name))
  return fetch(`${server.url}/api/messages`, { method: 'POST', headers: { cookie }, body })
}

/** Pings the server every 100 ms until stopped; resolves with the slowest answer in ms. */
function pinger() {
  let stopped = false
  let slowest = 0
  const done = (async () => {
    while (!stopped) {
      const started = performance.now()
      await fetch(`${server.url}/api/health`)
      slowest = Math.max(slowest, performance.now() - started)
      await new Promise((r) => setTimeout(r, 100))
    }
    return slowest
  })()
  return () => {
    stopped = true
    return done
  }
}

describe('the built server', () => {
  it('reads files in its bundled worker and refuses a bomb with a 422 naming the limit', async () => {
    const stop = pinger()
    const res = await send('file', 'sheet.xlsx', hugeSheetXlsx(1024 * MB))
    const slowest = await stop()
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({
      code: 'unprocessable:file_decompressed_size',
      message: fileLimitErrors['unprocessable:file_decompressed_size'],
    })
    // The issue saw 1.4 GB and minutes here; a ping answered while the worker measured it.
    expect(slowest).toBeLessThan(2_000)

    const ok = await send('file', 'notes.txt', new TextEncoder().encode('Compost on Tuesdays.'))
    expect(ok.status).toBe(200)
    expect(await ok.text()).toContain('Compost on Tuesdays.')
  })

  it('keeps DATA_DIR and its uploads to the server user (0700, files 0600)', async () => {
    const res = await send('image', 'image.png', await readFile('tests/fixtures/image.png'))
    expect(res.status).toBe(200)
    await res.text()
    const mode = async (p: string) => (await stat(p)).mode & 0o777
    const uploads = join(server.dataDir, 'uploads')
    expect(await mode(server.dataDir)).toBe(0o700)
    expect(await mode(join(server.dataDir, 'pglite'))).toBe(0o700)
    expect(await mode(uploads)).toBe(0o700)
    const [fanOut] = await readdir(uploads)
    const dir = join(uploads, fanOut as string)
    expect(await mode(dir)).toBe(0o700)
    const [file] = await readdir(dir)
    expect(await mode(join(dir, file as string))).toBe(0o600)
  })
})
