import { describe, expect, it } from 'vitest'
import { imageSource } from './image-source.ts'

const page = 'https://loris.example/chat'

describe('imageSource', () => {
  it('treats the app’s own files as its own', () => {
    expect(imageSource('/api/uploads/4f6c', page)).toEqual({ kind: 'own', src: '/api/uploads/4f6c' })
    expect(imageSource('https://loris.example/favicon.svg', page)?.kind).toBe('own')
  })

  it('names the host of a remote image', () => {
    expect(imageSource('https://attacker.example/p.png?leak=secret', page)).toEqual({
      kind: 'remote',
      src: 'https://attacker.example/p.png?leak=secret',
      host: 'attacker.example',
    })
    // Another port or scheme is another origin.
    expect(imageSource('http://loris.example:8080/x.png', page)).toMatchObject({ host: 'loris.example:8080' })
    // Look-alike hosts show as the browser reads them (punycode), not as they pretend.
    expect(imageSource('https://lorís.example/x.png', page)).toMatchObject({ host: 'xn--lors-xpa.example' })
  })

  it('refuses what is neither', () => {
    expect(imageSource('ftp://files.example/x.png', page)).toBeNull()
    expect(imageSource('http://[bad', page)).toBeNull()
  })
})
