// A fetched web page's readable text: Mozilla's Readability (Firefox's reader view) over linkedom's
// DOM, in the parse worker like any untrusted file. Scripts never run: linkedom has no script
// engine. The text is cut to the documents' budget, as an attached document's is.
import { Readability } from '@mozilla/readability'
import { parseHTML } from 'linkedom'
import { DOCUMENT_TEXT_BUDGET } from '#contract/attachments.ts'
import { AppError } from '#server/lib/app-error.ts'
import { decodeText } from './sniff.ts'

export interface ReadablePage {
  url: string
  title: string
  text: string
  /** The readable text's length before it was cut to the budget. */
  totalChars: number
}

const squeeze = (text: string) =>
  text
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()

export function readablePage(bytes: Uint8Array, url: string): ReadablePage {
  // Pages that are not UTF-8 are most often Windows-1252, which decodes any byte.
  const html = decodeText(bytes) ?? new TextDecoder('windows-1252').decode(bytes)
  const { document } = parseHTML(html)
  const fallbackTitle = document.querySelector('title')?.textContent?.trim() ?? ''
  // Readability changes the document it reads; the fallback reads the body as it came.
  const bodyText = document.body?.textContent || document.documentElement?.textContent || ''
  const article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse()
  const text = squeeze(article?.textContent || bodyText)
  if (!text) throw new AppError('unprocessable:page', 'This page has no text that Loris can read.')
  return {
    url,
    title: squeeze(article?.title || fallbackTitle) || new URL(url).hostname,
    text: text.slice(0, DOCUMENT_TEXT_BUDGET),
    totalChars: text.length,
  }
}
