import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
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
    expect(await readdir(path.dirname(file))).toEqual(['tiny.gguf'])
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
    expect(await readdir(dir)).toEqual(['tiny.gguf'])
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

  it('reports an HTTP error for a file the host does not have', async () => {
    const err = await failureOf(
      fetchModel({ url: hf.resolveUrl('missing.gguf'), file: path.join(dir, 'x.gguf'), sha256: sha }),
    )
    expect(err.kind).toBe('http')
    expect(err.message).toContain('HTTP 404')
  })
})
