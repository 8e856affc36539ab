import http from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { guardedFetch } from './guarded-fetch.ts'
import { isPublicAddress } from './public-address.ts'

/** The ways one IPv4 address can be written in a URL's host (WHATWG URL reads them all). */
function ipv4Forms(octets: number[]): string[] {
  const n = octets.reduce((acc, o) => acc * 256 + o, 0)
  return [
    octets.join('.'),
    String(n),
    `0x${n.toString(16)}`,
    `0${n.toString(8)}`,
    octets.map((o) => `0x${o.toString(16)}`).join('.'),
    `${octets[0]}.${(n & 0xffffff) >>> 0}`,
    `[::ffff:${octets.join('.')}]`,
  ]
}

const hostOf = (form: string) => new URL(`http://${form}/`).hostname

describe('the public-address check', () => {
  const octet = fc.integer({ min: 0, max: 255 })
  const privateV4 = fc.oneof(
    fc.tuple(fc.constant(127), octet, octet, octet),
    fc.tuple(fc.constant(10), octet, octet, octet),
    fc.tuple(fc.constant(192), fc.constant(168), octet, octet),
    fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), octet, octet),
    fc.tuple(fc.constant(169), fc.constant(254), octet, octet),
    fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), octet, octet),
    fc.tuple(fc.constant(0), octet, octet, octet),
  )

  it('refuses private, loopback and link-local IPv4 however the address is written', () => {
    fc.assert(
      fc.property(privateV4, (octets) => {
        for (const form of ipv4Forms(octets)) {
          const host = hostOf(form)
          expect(isPublicAddress(host.replace(/^\[|\]$/g, '')), `${form} -> ${host}`).toBe(false)
        }
      }),
    )
  })

  it('lets public IPv4 through in every form', () => {
    const publicV4 = fc
      .tuple(
        fc.constantFrom(8, 9, 23, 34, 52, 93, 142, 151, 185, 203),
        octet,
        octet,
        fc.integer({ min: 1, max: 254 }),
      )
      .filter(([a, b]) => !(a === 203 && b === 0))
    fc.assert(
      fc.property(publicV4, (octets) => {
        for (const form of ipv4Forms(octets))
          expect(isPublicAddress(hostOf(form).replace(/^\[|\]$/g, ''))).toBe(true)
      }),
    )
  })

  it('refuses IPv6 loopback, unique-local, link-local, NAT64, 6to4 and metadata addresses', () => {
    const hex = fc.integer({ min: 0, max: 0xffff }).map((v) => v.toString(16))
    const special = fc.oneof(
      fc.constant('::1'),
      fc.constant('::'),
      fc
        .tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), hex, hex)
        .map(([a, b, c]) => `${a.toString(16)}:${b}::${c}`),
      fc.tuple(hex, hex).map(([a, b]) => `fe80::${a}:${b}`),
      fc.tuple(hex, hex).map(([a, b]) => `64:ff9b::${a}:${b}`),
      fc.tuple(hex, hex).map(([a, b]) => `2002:${a}:${b}::1`),
      fc.constant('fd00:ec2::254'),
    )
    fc.assert(
      fc.property(special, (address) => {
        expect(isPublicAddress(hostOf(`[${address}]`).replace(/^\[|\]$/g, ''))).toBe(false)
      }),
    )
    expect(isPublicAddress('2001:4860:4860::8888')).toBe(true)
    expect(isPublicAddress('not an address')).toBe(false)
  })
})

describe('guardedFetch', () => {
  let server: http.Server
  let base: string
  const hits: string[] = []

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '')
      if (req.headers.cookie) res.writeHead(500).end('cookie sent')
      else if (req.url === '/page')
        res.writeHead(200, { 'content-type': 'text/html' }).end('<title>T</title><p>hi</p>')
      else if (req.url === '/hop') res.writeHead(302, { location: '/page' }).end()
      else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end()
      else if (req.url === '/elsewhere')
        res
          .writeHead(302, { location: `http://127.0.0.2:${(server.address() as AddressInfo).port}/page` })
          .end()
      else if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end(Buffer.alloc(3 * 1024 * 1024, 97))
      } else if (req.url === '/slow') res.writeHead(200, { 'content-type': 'text/html' }).write('<p>')
      else res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => {
    server.closeAllConnections()
    server.close()
  })

  const onlyThisServer = (address: string) => address === '127.0.0.1'

  it('refuses a loopback link by default before any request reaches it', async () => {
    hits.length = 0
    for (const host of ['127.0.0.1', 'localhost', '2130706433', '0x7f000001', '[::ffff:127.0.0.1]']) {
      const link = `http://${host}:${new URL(base).port}/page`
      await expect(guardedFetch(link)).rejects.toMatchObject({
        code: expect.stringMatching(/^forbidden:link|bad_gateway:link$/),
      })
    }
    expect(hits).toEqual([])
  })

  it('refuses other schemes and links with credentials', async () => {
    await expect(guardedFetch('file:///etc/passwd')).rejects.toMatchObject({ code: 'forbidden:link' })
    await expect(guardedFetch('ftp://example.com/')).rejects.toMatchObject({ code: 'forbidden:link' })
    await expect(guardedFetch(`http://user:pw@127.0.0.1:1/`)).rejects.toMatchObject({
      code: 'forbidden:link',
    })
    await expect(guardedFetch('not a link')).rejects.toMatchObject({ code: 'bad_request:link' })
  })

  it('reads a page under the test setting, following redirects, without cookies', async () => {
    const page = await guardedFetch(`${base}/hop`, { allowPrivate: onlyThisServer })
    expect(page.url).toBe(`${base}/page`)
    expect(page.contentType).toContain('text/html')
    expect(Buffer.from(page.bytes).toString()).toContain('<p>hi</p>')
  })

  it('checks the address again after a redirect', async () => {
    hits.length = 0
    await expect(guardedFetch(`${base}/elsewhere`, { allowPrivate: onlyThisServer })).rejects.toMatchObject({
      code: 'forbidden:link',
    })
    expect(hits).toEqual(['/elsewhere'])
  })

  it('stops after 3 redirects, past 2 MB and after its time', async () => {
    await expect(guardedFetch(`${base}/loop`, { allowPrivate: true })).rejects.toMatchObject({
      message: expect.stringMatching(/redirects more than 3 times/),
    })
    await expect(guardedFetch(`${base}/big`, { allowPrivate: true })).rejects.toMatchObject({
      code: 'payload_too_large:link',
    })
    await expect(
      guardedFetch(`${base}/slow`, { allowPrivate: true, limits: { timeoutMs: 200 } }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/longer than 0.2 seconds/) })
  })
})
