// Text of a document, for models that are sent text rather than files. Runs before anything is
// stored, so a document we cannot read is refused (422) without leaving a trace.
import mammoth from 'mammoth'
import { extractText, getDocumentProxy } from 'unpdf'
import XLSX from 'xlsx'
import { DOCUMENT_TEXT_BUDGET } from '#contract/attachments.ts'
import { AppError } from '#server/lib/app-error.ts'
import { decodeText } from './sniff.ts'
import { readWord97Text } from './word-97.ts'

export interface ExtractedText {
  text: string
  /** Characters before cutting; larger than text.length when the document was truncated. */
  totalChars: number
  truncated: boolean
}

const unreadable = (message: string) => new AppError('unprocessable:attachment', message)

async function pdfText(bytes: Uint8Array): Promise<string> {
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes))
  try {
    const { text } = await extractText(pdf, { mergePages: false })
    return text.map((page) => page.trim()).join('\n\n')
  } finally {
    await pdf.destroy()
  }
}

function sheetText(bytes: Uint8Array): string {
  const book = XLSX.read(bytes, { type: 'buffer', cellDates: true })
  return book.SheetNames.map((name) => {
    const sheet = book.Sheets[name]
    const csv = sheet ? XLSX.utils.sheet_to_csv(sheet, { blankrows: false }).trim() : ''
    return csv ? `Sheet "${name}":\n${csv}` : ''
  })
    .filter(Boolean)
    .join('\n\n')
}

async function rawText(bytes: Uint8Array, mimeType: string): Promise<string> {
  switch (mimeType) {
    case 'application/pdf':
      return pdfText(bytes)
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      return (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value
    case 'application/msword': {
      const text = readWord97Text(bytes)
      if (text === null)
        throw unreadable(
          'The text of this old Word (.doc) file cannot be read. Save it as DOCX or PDF and attach it again.',
        )
      return text
    }
    case 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
    case 'application/vnd.ms-excel':
      return sheetText(bytes)
    default:
      return decodeText(bytes) ?? ''
  }
}

const NO_TEXT: Record<string, string> = {
  'application/pdf':
    'No text could be read from this PDF. It may be a scanned image; attach a PDF with selectable text, or a photo of the page as an image.',
  'application/vnd.ms-excel': 'This spreadsheet has no cells with content.',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
    'This spreadsheet has no cells with content.',
}

/** The document's text, cut to `budget` characters; 422 when there is none. */
export async function extractDocumentText(
  bytes: Uint8Array,
  mimeType: string,
  budget = DOCUMENT_TEXT_BUDGET,
): Promise<ExtractedText> {
  let text: string
  try {
    text = await rawText(bytes, mimeType)
  } catch (err) {
    if (err instanceof AppError) throw err
    throw unreadable('This document could not be read. It may be damaged or password-protected.')
  }
  // Collapse runs of blank lines and trailing spaces: they cost tokens and say nothing.
  text = text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  if (!text) throw unreadable(NO_TEXT[mimeType] ?? 'This document has no text to read.')
  const truncated = text.length > budget
  return { text: truncated ? text.slice(0, budget) : text, totalChars: text.length, truncated }
}
