import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { freePort } from '../../../../tests/helpers/free-port.ts'
import { type HfStandIn, startHuggingFaceStandIn } from '../../../../tests/stand-ins/huggingface.ts'
import { fetchModel, ModelFetchError } from './model-fetch.ts'

const FIXTURE = path.resolve(import.meta.dirname, '../../../../tests/fixtures/models/stories260K.gguf')
let model: Buffer
let sha: string
let hf: HfStandIn
let dir: string

beforeAll(async () => {
  model = await readFile(FIXTURE)
  sha = createHash('sha256').update(model).digest('hex')
  hf = await startHuggingFaceStandIn({
    repo: 'loris/tiny',
    revision: 'abc123',
    files: { 'tiny.gguf': model },
  })
})
afterAll(() => hf.close())
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'loris-fetch-'))
  hf.requests.length = 0
  hf.setThrottle(0)
  hf.corrupt(null)
  return () => rm(dir, { recursive: true, force: true })
})

const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure')
    },
    (e: unknown) => e as ModelFetchError,
  )

describe('fetchModel', () => {
  it('follows the resolve redirect, checks the sha256 and renames the file into place', async () => {
    const file = path.join(dir, 'models', 'tiny.gguf')
    const progress: number[] = []
    const result = await fetchModel({
      url: hf.resolveUrl('tiny.gguf'),
      file,
      sha256: sha,
      onProgress: (p) => progress.push(p.bytes),
    })
    expect(result).toEqual({ file, bytes: model.length })
    expect((await readFile(file)).equals(model)).toBe(true)
    expect(await readdir(path.dirname(file))).toEqual(['tiny.gguf', 'tiny.gguf.verified.json'])
    expect(hf.requests.map((r) => r.status)).toEqual([302, 200])
    expect(progress.at(-1)).toBe(model.length)
    expect(progress.length).toBeGreaterThan(2)
    // Already there: nothing is fetched again.
    await fetchModel({ url: hf.resolveUrl('tiny.gguf'), file, sha256: sha })
    expect(hf.requests).toHaveLength(2)
  })

  it("takes Hugging Face's X-Linked-Etag as the checksum when none is configured", async () => {
    const file = path.join(dir, 'tiny.gguf')
    await fetchModel({ url: hf.resolveUrl('tiny.gguf'), file, sha256: null })
    expect((await readFile(file)).equals(model)).toBe(true)
  })

  it('resumes an interrupted download with a Range request', async () => {
    const file = path.join(dir, 'tiny.gguf')
    hf.cutNextAfter(300_000)
    const err = await failureOf(fetchModel({ url: hf.resolveUrl('tiny.gguf'), file, sha256: sha }))
    expect(err).toBeInstanceOf(ModelFetchError)
    expect(err.kind).toBe('offline')
    const partSize = (await readFile(`${file}.part`)).length
    expect(partSize).toBeGreaterThan(0)
    expect(partSize).toBeLessThan(model.length)

    await fetchModel({ url: hf.resolveUrl('tiny.gguf'), file, sha256: sha })
    expect((await readFile(file)).equals(model)).toBe(true)
    expect(hf.requests.slice(-2)).toEqual([
      { path: '/loris/tiny/resolve/abc123/tiny.gguf', range: `bytes=${partSize}-`, status: 302 },
      { path: `/repos/${sha}`, range: `bytes=${partSize}-`, status: 206 },
    ])
    expect(await readdir(dir)).toEqual(['tiny.gguf', 'tiny.gguf.verified.json'])
  })

  it('refuses a file whose sha256 does not match, keeping nothing', async () => {
    const file = path.join(dir, 'tiny.gguf')
    const broken = Buffer.from(model)
    broken[1000] = (broken[1000] ?? 0) ^ 0xff
    hf.corrupt(broken)
    const err = await failureOf(fetchModel({ url: hf.resolveUrl('tiny.gguf'), file, sha256: sha }))
    expect(err.kind).toBe('checksum')
    expect(err.message).toContain(sha)
    expect(await readdir(dir)).toEqual([])
  })

  it('says the host is unreachable when nothing listens', async () => {
    const port = await freePort()
    const err = await failureOf(
      fetchModel({
        url: `http://127.0.0.1:${port}/a/b/resolve/main/x.gguf`,
        file: path.join(dir, 'x.gguf'),
        sha256: sha,
      }),
    )
    expect(err.kind).toBe('offline')
    expect(err.message).toContain(`127.0.0.1:${port}`)
  })

  it('two fetches at once (cluster workers) end with the right file, fetched once', async () => {
    const file = path.join(dir, 'models', 'tiny.gguf')
    hf.setThrottle(model.length) // about a second, so the second starts mid-download
    const first = fetchModel({ url: hf.resolveUrl('tiny.gguf'), file, sha256: sha })
    await vi.waitFor(
      async () => expect((await stat(`${file}.part`)).size).toBeGreaterThan(model.length / 4),
      {
        timeout: 5_000,
      },
    )
    const second = fetchModel({ url: hf.resolveUrl('tiny.gguf'), file, sha256: sha })
    expect(await Promise.all([first, second])).toEqual([
      { file, bytes: model.length },
      { file, bytes: model.length },
    ])
    expect(
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    ).toBe(sha)
    expect(hf.requests.filter((r) => r.path.startsWith('/repos/'))).toHaveLength(1)
    expect(await readdir(path.dirname(file))).toEqual(['tiny.gguf', 'tiny.gguf.verified.json'])
  })

  it('does not trust a model file it did not verify: a wrong one is fetched again', async () => {
    const file = path.join(dir, 'tiny.gguf')
    // What a crash or a race leaves: the right size, other bytes, and no record of a check.
    const broken = Buffer.from(model)
    broken[1000] = (broken[1000] ?? 0) ^ 0xff
    await writeFile(file, broken)
    expect(await fetchModel({ url: hf.resolveUrl('tiny.gguf'), file, sha256: sha })).toEqual({
      file,
      bytes: model.length,
    })
    expect((await readFile(file)).equals(model)).toBe(true)
  })

  it('does not trust a record of a check against another checksum', async () => {
    const file = path.join(dir, 'tiny.gguf')
    await fetchModel({ url: hf.resolveUrl('tiny.gguf'), file, sha256: sha })
    const requests = hf.requests.length
    // The configured checksum changed (another model at the same name): the file is not it.
    const other = '1'.repeat(64)
    const err = await failureOf(fetchModel({ url: hf.resolveUrl('tiny.gguf'), file, sha256: other }))
    expect(err.kind).toBe('checksum')
    expect(hf.requests.length).toBeGreaterThan(requests)
    expect(await readdir(dir)).toEqual([])
  })

  it('checks a file placed by hand against the configured checksum, without the network', async () => {
    const file = path.join(dir, 'tiny.gguf')
    await writeFile(file, model)
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/loris/tiny/resolve/abc123/tiny.gguf`
    expect(await fetchModel({ url, file, sha256: sha })).toEqual({ file, bytes: model.length })
    expect(await readdir(dir)).toEqual(['tiny.gguf', 'tiny.gguf.verified.json'])
  })

  it('takes over the lock of a download whose process died', async () => {
    const file = path.join(dir, 'tiny.gguf')
    const dead = spawnSync(process.execPath, ['-e', '0']).pid
    await writeFile(`${file}.lock`, JSON.stringify({ pid: dead, host: hostname(), token: 'gone' }))
    await fetchModel({ url: hf.resolveUrl('tiny.gguf'), file, sha256: sha })
    expect((await readFile(file)).equals(model)).toBe(true)
    expect(await readdir(dir)).toEqual(['tiny.gguf', 'tiny.gguf.verified.json'])
  })

  it('reports an HTTP error for a file the host does not have', async () => {
    const err = await failureOf(
      fetchModel({ url: hf.resolveUrl('missing.gguf'), file: path.join(dir, 'x.gguf'), sha256: sha }),
    )
    expect(err.kind).toBe('http')
    expect(err.message).toContain('HTTP 404')
  })
})
