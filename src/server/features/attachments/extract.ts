// Text of a document, for models that are sent text rather than files. Runs in the parse worker
// (parse-worker.ts), never on the server's main thread, and before anything is stored, so a
// document we cannot read is refused (422) without leaving a trace.
import mammoth from 'mammoth'
import { getDocumentProxy } from 'unpdf'
import XLSX from 'xlsx'
import { DOCUMENT_TEXT_BUDGET, PARSE_LIMITS, type ParseLimits } from '#contract/attachments.ts'
import { fileLimitErrors } from '#contract/errors.ts'
import { AppError } from '#server/lib/app-error.ts'
import { measurePdf, measureZip, newBudget } from './inflate-budget.ts'
import { decodeText } from './sniff.ts'
import { readWord97Text } from './word-97.ts'

export interface ExtractedText {
  text: string
  /** Characters before cutting; larger than text.length when the document was truncated. */
  totalChars: number
  truncated: boolean
  /** Set when only the first pages were read (PARSE_LIMITS.pages). */
  pages?: { read: number; total: number }
}

const unreadable = (message: string) => new AppError('unprocessable:attachment', message)

interface RawText {
  text: string
  /** Set when pages were left out: how many the document has and how many were read. */
  pages?: { read: number; total: number }
}

async function pdfText(bytes: Uint8Array, limits: ParseLimits): Promise<RawText> {
  measurePdf(bytes, newBudget(limits))
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes))
  try {
    const read = Math.min(pdf.numPages, limits.pages)
    const pages: string[] = []
    // One page at a time (unpdf's extractText starts them all at once): a page past the limit is
    // never parsed, and memory holds one page's content at a time.
    for (let n = 1; n <= read; n++) {
      const page = await pdf.getPage(n)
      const content = await page.getTextContent()
      pages.push(
        content.items
          .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
          .join('')
          .trim(),
      )
      page.cleanup()
    }
    const text = pages.join('\n\n')
    return read < pdf.numPages ? { text, pages: { read, total: pdf.numPages } } : { text }
  } finally {
    await pdf.destroy()
  }
}

/**
 * An old .xls is not compressed, so there is nothing to measure before parsing: its sheets are
 * counted from the workbook's index (cheap), its cells once parsed (before they become text).
 */
function checkLegacySheetCount(bytes: Uint8Array, limits: ParseLimits): void {
  const index = XLSX.read(bytes, { type: 'buffer', bookSheets: true })
  if (index.SheetNames.length > limits.sheets)
    throw new AppError('unprocessable:file_sheet_limit', fileLimitErrors['unprocessable:file_sheet_limit'])
}

/** The sheets as CSV; with `limits` (old .xls only: xlsx files were counted before) cells are counted first. */
function sheetText(bytes: Uint8Array, limits?: ParseLimits): string {
  const book = XLSX.read(bytes, { type: 'buffer', cellDates: true })
  if (limits) {
    let cells = 0
    for (const sheet of Object.values(book.Sheets)) for (const key in sheet) if (!key.startsWith('!')) cells++
    if (cells > limits.cells)
      throw new AppError('unprocessable:file_cell_limit', fileLimitErrors['unprocessable:file_cell_limit'])
  }
  return book.SheetNames.map((name) => {
    const sheet = book.Sheets[name]
    const csv = sheet ? XLSX.utils.sheet_to_csv(sheet, { blankrows: false }).trim() : ''
    return csv ? `Sheet "${name}":\n${csv}` : ''
  })
    .filter(Boolean)
    .join('\n\n')
}

async function rawText(bytes: Uint8Array, mimeType: string, limits: ParseLimits): Promise<RawText> {
  switch (mimeType) {
    case 'application/pdf':
      return pdfText(bytes, limits)
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      measureZip(bytes, newBudget(limits), limits)
      return { text: (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value }
    case 'application/msword': {
      const text = readWord97Text(bytes)
      if (text === null)
        throw unreadable(
          'The text of this old Word (.doc) file cannot be read. Save it as DOCX or PDF and attach it again.',
        )
      return { text }
    }
    case 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
      // Sheets and cells are counted before xlsx parses anything (it holds every cell at once).
      measureZip(bytes, newBudget(limits), limits)
      return { text: sheetText(bytes) }
    case 'application/vnd.ms-excel':
      checkLegacySheetCount(bytes, limits)
      return { text: sheetText(bytes, limits) }
    default:
      return { text: decodeText(bytes) ?? '' }
  }
}

/**
 * Trailing spaces and tabs go from every line, and runs of blank lines become one. A loop rather
 * than `/[ \t]+\n/g`, which is quadratic on a long run of spaces with no newline.
 */
export function tidyWhitespace(text: string): string {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    let end = line.length
    while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--
    if (end < line.length) lines[i] = line.slice(0, end)
  }
  // Linear: a run of newlines is matched once, from its first character.
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

const NO_TEXT: Record<string, string> = {
  'application/pdf':
    'No text could be read from this PDF. It may be a scanned image; attach a PDF with selectable text, or a photo of the page as an image.',
  'application/vnd.ms-excel': 'This spreadsheet has no cells with content.',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
    'This spreadsheet has no cells with content.',
}

/** The document's text, cut to `budget` characters; 422 when there is none or a limit is hit. */
export async function extractDocumentText(
  bytes: Uint8Array,
  mimeType: string,
  budget = DOCUMENT_TEXT_BUDGET,
  limits: ParseLimits = PARSE_LIMITS,
): Promise<ExtractedText> {
  let raw: RawText
  try {
    raw = await rawText(bytes, mimeType, limits)
  } catch (err) {
    if (err instanceof AppError) throw err
    throw unreadable('This document could not be read. It may be damaged or password-protected.')
  }
  // Trailing spaces and runs of blank lines cost tokens and say nothing.
  const text = tidyWhitespace(raw.text)
  if (!text) throw unreadable(NO_TEXT[mimeType] ?? 'This document has no text to read.')
  const truncated = text.length > budget
  return {
    text: truncated ? text.slice(0, budget) : text,
    totalChars: text.length,
    truncated,
    ...(raw.pages ? { pages: raw.pages } : {}),
  }
}
