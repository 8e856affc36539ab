import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import ReactMarkdown from 'react-markdown'
import { describe, expect, it } from 'vitest'
import { keepLineBreaks } from './format.ts'

describe('keepLineBreaks', () => {
  it('keeps each line a person typed as its own line in a Markdown reader', () => {
    const md = keepLineBreaks('line one\nline two\n\nanother paragraph')
    expect(md).toBe('line one  \nline two\n\nanother paragraph')
    // As a Markdown reader shows it: one paragraph of two lines, then the next paragraph.
    expect(renderToStaticMarkup(createElement(ReactMarkdown, null, md))).toBe(
      '<p>line one<br/>\nline two</p>\n<p>another paragraph</p>',
    )
  })

  it('leaves fenced code, lines already broken and the last line alone', () => {
    const text = 'see:\n```\na\nb\n```\nend\\\nx  \ny'
    expect(keepLineBreaks(text)).toBe('see:\n```\na\nb\n```\nend\\\nx  \ny')
  })

  it('ends a fence only at a closing fence of the same kind', () => {
    expect(keepLineBreaks('~~~\na\n```\nb\n~~~\nc\nd')).toBe('~~~\na\n```\nb\n~~~\nc  \nd')
  })
})
