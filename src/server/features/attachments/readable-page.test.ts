import { afterAll, describe, expect, it } from 'vitest'
import { ParsePool } from './parse-pool.ts'

describe('reading a web page in the parse pool', () => {
  const pool = new ParsePool({ size: 1 })
  afterAll(() => pool.close())

  it('keeps the article and its title, not the page around it', async () => {
    const article = Array.from(
      { length: 12 },
      (_, i) => `<p>Loris paragraph ${i} about tree planting and carbon.</p>`,
    )
    const html = `<!doctype html><html><head><title>Trees | Example News</title>
      <script>document.write('never runs')</script></head><body>
      <nav><a href="/">Home</a><a href="/a">Menu item</a></nav>
      <article><h1>How trees store carbon</h1>${article.join('')}</article>
      <footer>Cookie banner and copyright</footer></body></html>`
    const page = await pool.readPage(new TextEncoder().encode(html), 'https://news.example/trees')
    expect(page.title).toMatch(/Trees/)
    expect(page.text).toContain('Loris paragraph 11 about tree planting')
    expect(page.text).not.toContain('Cookie banner')
    expect(page.text).not.toContain('never runs')
    expect(page.url).toBe('https://news.example/trees')
  })

  it('reads a page that is not UTF-8 and names a page without a title by its host', async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('<p>caf'),
      0xe9,
      ...new TextEncoder().encode('</p>'),
    ])
    const page = await pool.readPage(bytes, 'https://plain.example/x')
    expect(page.text).toBe('café')
    expect(page.title).toBe('plain.example')
  })

  it('refuses a page with no text', async () => {
    await expect(
      pool.readPage(new TextEncoder().encode('<html><body></body></html>'), 'https://e.example/'),
    ).rejects.toMatchObject({
      code: 'unprocessable:page',
    })
  })
})
