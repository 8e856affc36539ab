import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { withHead } from './serve-client.ts'

const shell = readFileSync('src/client/index.html', 'utf8')

describe('withHead', () => {
  it("writes a title and description holding replacement patterns ('$10 $& $` $'') as they are", () => {
    // String.replace reads `$&`, `$'`, `` $` `` and `$1` in a replacement string: a person's
    // words must never be read that way.
    const tricky = 'Should I pay $10? $& $` $\' $$ <b>"x"</b>'
    const html = withHead(shell, {
      title: `${tricky} | Shared on Loris`,
      description: tricky,
      url: 'http://localhost:5000/share/abc',
      noindex: true,
    })
    const escaped = "Should I pay $10? $&amp; $` $' $$ &lt;b&gt;&quot;x&quot;&lt;/b&gt;"
    const title = `${escaped} | Shared on Loris`
    // The expected page, made without any replacement pattern: each tag's content split out and
    // joined back with the new text.
    const swap = (doc: string, tag: RegExp, content: string) => {
      const found = doc.match(tag)
      if (!found?.[1]) throw new Error(`not in the shell: ${tag}`)
      return doc.split(found[0]).join(`${found[1]}${content}"`)
    }
    const oldTitle = shell.match(/<title>[^<]*<\/title>/)?.[0] ?? '<title> missing'
    let expected = shell.split(oldTitle).join(`<title>${title}</title>`)
    expected = swap(expected, /(<meta\s+name="description"\s+content=")[^"]*"/, escaped)
    expected = swap(expected, /(<meta property="og:title" content=")[^"]*"/, title)
    expected = swap(expected, /(<meta\s+property="og:description"\s+content=")[^"]*"/, escaped)
    expected = swap(expected, /(<meta property="og:type" content=")website"/, 'article')
    expected = expected
      .split('</head>')
      .join(
        '    <meta property="og:url" content="http://localhost:5000/share/abc" />\n    <meta name="robots" content="noindex" />\n  </head>',
      )
    expect(html).toBe(expected)
    // The title once in <title> and once in og:title; the description in its two tags; the body
    // exactly as it was.
    expect(html.split(`<title>${title}</title>`)).toHaveLength(2)
    expect(html.split(`content="${title}"`)).toHaveLength(2)
    expect(html.split(`content="${escaped}"`)).toHaveLength(3)
    expect(html.slice(html.indexOf('</head>'))).toBe(shell.slice(shell.indexOf('</head>')))
  })

  it('marks an unknown share noindex and changes nothing else', () => {
    expect(withHead(shell, null)).toBe(
      shell.split('</head>').join('    <meta name="robots" content="noindex" />\n  </head>'),
    )
  })
})
