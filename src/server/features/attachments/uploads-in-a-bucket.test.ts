// The app with S3_BUCKET set: an upload goes to the bucket and nothing to DATA_DIR/uploads, and
// every reader of stored files (the owner's GET, a share's file, the account export, a share
// continued) reads it from there; deleting the thread removes the object once it is stale.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { beforeAll, describe, expect, it } from 'vitest'
import { createShareResponse } from '#contract/sharing.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents } from '../../../../tests/helpers/chat.ts'
import { type S3StandIn, startS3StandIn } from '../../../../tests/stand-ins/s3.ts'

let s3: S3StandIn
// Before the app's own setup, which reads the bucket's address.
beforeAll(async () => {
  s3 = await startS3StandIn()
  return () => s3.close()
})
const app = setUpAiTestApp(() => s3.env())

describe('uploads in an S3 bucket', () => {
  it('stores an image in the bucket and serves it to its owner, a share, the export and a continued share', async () => {
    const png = new Uint8Array(await readFile(join('tests/fixtures', 'image.png')))
    const { cookie } = await app.t.signUp()
    const body = new FormData()
    body.set('content', 'What is this?')
    body.set('image', new File([png], 'image.png'))
    const events = await readEvents(await app.t.request('/api/messages', { method: 'POST', cookie, body }))
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    const threadId = events[0]?.threadId as string

    const keys = [...s3.objects.keys()]
    expect(keys).toHaveLength(1)
    expect(existsSync(join(app.t.deps.env.DATA_DIR, 'uploads'))).toBe(false)

    const page = await (await app.t.request(`/api/messages?threadId=${threadId}`, { cookie })).json()
    const mediaUrl = page.items.find((m: { mediaUrl: string | null }) => m.mediaUrl)?.mediaUrl as string
    const own = await app.t.request(mediaUrl, { cookie })
    expect(own.status).toBe(200)
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(png)

    const shared = createShareResponse.parse(
      await (
        await app.t.request(`/api/threads/${threadId}/share`, { method: 'POST', cookie, json: {} })
      ).json(),
    )
    const uploadId = mediaUrl.split('/').pop()
    const file = await app.t.request(`/api/shares/${shared.token}/files/${uploadId}`)
    expect(file.status).toBe(200)
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png)

    const zip = unzipSync(
      new Uint8Array(await (await app.t.request('/api/export', { cookie })).arrayBuffer()),
    )
    expect(
      Object.values(zip).some((bytes) => bytes.length === png.length && bytes.every((b, i) => b === png[i])),
    ).toBe(true)

    // Continuing the share touches the object (a copy onto itself) before its rows are written.
    const visitor = await app.t.signUp()
    s3.requests.length = 0
    const cont = await app.t.request(`/api/shares/${shared.token}/continue`, {
      method: 'POST',
      cookie: visitor.cookie,
    })
    expect(cont.status).toBe(201)
    expect(s3.requests).toContain(`CopyObject ${keys[0]}`)
  })

  it('streams a download from the bucket, and a client going away ends the GET', async () => {
    const { cookie } = await app.t.signUp()
    const body = new FormData()
    body.set('content', 'Read this')
    body.set('file', new File(['a short note'], 'note.txt', { type: 'text/plain' }))
    const events = await readEvents(await app.t.request('/api/messages', { method: 'POST', cookie, body }))
    expect(events.at(-1)).toMatchObject({ done: true })
    const threadId = events[0]?.threadId as string
    const page = await (await app.t.request(`/api/messages?threadId=${threadId}`, { cookie })).json()
    const mediaUrl = page.items.find((m: { mediaUrl: string | null }) => m.mediaUrl)?.mediaUrl as string
    // The object made as large as an upload may be (25 MB), in place.
    const key = [...s3.objects.keys()].find((k) => s3.objects.get(k)?.bytes.toString() === 'a short note')
    const object = s3.objects.get(key as string)
    if (!object) throw new Error('the note is not in the bucket')
    const size = 25 * 2 ** 20
    object.bytes = Buffer.alloc(size, 'loris ')
    s3.reads.length = 0

    const res = await app.t.request(mediaUrl, { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe(String(size))
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    expect((await reader.read()).value?.length).toBeGreaterThan(0)
    const read = s3.reads[0]
    // Answering began before the bucket had sent the whole object.
    expect(read?.sent).toBeLessThan(size)
    await reader.cancel()
    await expect.poll(() => read?.closed).toBe(true)
    expect(read?.completed).toBe(false)
    expect(read?.sent).toBeLessThan(size)
  })

  it('deleting the thread removes an object no row names once it is older than the grace', async () => {
    const bytes = new TextEncoder().encode('a note only this thread holds')
    const { cookie } = await app.t.signUp()
    const body = new FormData()
    body.set('content', 'Read this')
    body.set('file', new File([bytes], 'note.txt', { type: 'text/plain' }))
    const events = await readEvents(await app.t.request('/api/messages', { method: 'POST', cookie, body }))
    expect(events.at(-1)).toMatchObject({ done: true })
    const key = [...s3.objects.keys()].find((k) => s3.objects.get(k)?.bytes.equals(Buffer.from(bytes)))
    expect(key).toBeDefined()
    s3.age(key as string, 3 * 60 * 60_000)
    const threadId = events[0]?.threadId as string
    expect((await app.t.request(`/api/threads/${threadId}`, { method: 'DELETE', cookie })).status).toBe(200)
    await expect.poll(() => s3.objects.has(key as string)).toBe(false)
  })
})
