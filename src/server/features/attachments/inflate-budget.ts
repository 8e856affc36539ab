// Measures what a file's compressed parts inflate to before any library is allowed to inflate them
// (zip bombs, PDF stream bombs). Output is counted and thrown away, chunk by chunk, so measuring a
// 1 GB entry costs a few MB of memory and stops as soon as a budget is spent. Runs in the parse
// worker (parse-worker.ts), like everything that reads a file's content.
import { Inflate } from 'fflate'
import { PARSE_LIMITS, type ParseLimits } from '#contract/attachments.ts'
import { fileLimitErrors } from '#contract/errors.ts'
import { AppError } from '#server/lib/app-error.ts'

// Compressed input is fed in small pieces: deflate expands at most ~1032:1, so one piece never
// inflates to more than ~16 MB at once.
const PIECE = 16 * 1024

export interface Budget {
  entryBytes: number
  totalBytes: number
  /** Inflated so far, all parts together. */
  spent: number
}

export const newBudget = (limits: ParseLimits = PARSE_LIMITS): Budget => ({
  entryBytes: limits.entryBytes,
  totalBytes: limits.totalBytes,
  spent: 0,
})

const tooBig = () =>
  new AppError(
    'unprocessable:file_decompressed_size',
    fileLimitErrors['unprocessable:file_decompressed_size'],
  )

/**
 * Inflates `compressed` (raw deflate, or zlib when `zlib` is set), handing each output chunk to
 * `look` and counting it against the budget. Damaged data simply ends the count: the library that
 * reads the file later decides whether it is readable.
 */
export function inflateCounting(
  compressed: Uint8Array,
  budget: Budget,
  look?: (chunk: Uint8Array) => void,
  zlib = false,
): number {
  let entry = 0
  let over = false
  const inflate = new Inflate((chunk) => {
    entry += chunk.length
    budget.spent += chunk.length
    if (entry > budget.entryBytes || budget.spent > budget.totalBytes) over = true
    else look?.(chunk)
  })
  let at = zlib ? 2 : 0
  try {
    while (at < compressed.length && !over) {
      const end = Math.min(at + PIECE, compressed.length)
      inflate.push(compressed.subarray(at, end), end === compressed.length)
      at = end
    }
  } catch (err) {
    // A limit `look` hit stops everything; anything else is data that is not (or no longer) deflate.
    if (err instanceof AppError) throw err
  }
  if (over) throw tooBig()
  return entry
}

// ---- Zip (docx, xlsx) ------------------------------------------------------------------------

export interface ZipCounts {
  sheets: number
  cells: number
}

const u16 = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8)
const u32 = (b: Uint8Array, at: number) => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0

function endOfCentralDirectory(zip: Uint8Array): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the end of the file.
  const stop = Math.max(0, zip.length - 22 - 0xffff)
  for (let at = zip.length - 22; at >= stop; at--) if (u32(zip, at) === 0x06054b50) return at
  return -1
}

const SHEET_PART = /^xl\/worksheets\/[^/]{1,200}\.xml$/i

/** Counts `<c ` / `<c>` / `<c/>` (a cell) across chunk boundaries. */
function cellCounter(onCell: () => void) {
  let prevLt = false
  let prevC = false
  return (chunk: Uint8Array) => {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]
      if (prevC && (b === 0x20 || b === 0x3e || b === 0x2f || b === 0x09 || b === 0x0a || b === 0x0d))
        onCell()
      prevC = prevLt && b === 0x63
      prevLt = b === 0x3c
    }
  }
}

/**
 * Walks a zip's central directory (what mammoth and xlsx read) and inflates every entry against the
 * budget; counts the worksheets and their cells on the way. Throws the 422 of the first limit hit.
 */
export function measureZip(zip: Uint8Array, budget: Budget, limits: ParseLimits = PARSE_LIMITS): ZipCounts {
  const counts: ZipCounts = { sheets: 0, cells: 0 }
  const eocd = endOfCentralDirectory(zip)
  if (eocd < 0) return counts
  const entries = u16(zip, eocd + 10)
  let at = u32(zip, eocd + 16)
  for (let i = 0; i < entries && at + 46 <= zip.length; i++) {
    if (u32(zip, at) !== 0x02014b50) break
    const method = u16(zip, at + 10)
    const compressedSize = u32(zip, at + 20)
    const nameLength = u16(zip, at + 28)
    const extraLength = u16(zip, at + 30)
    const commentLength = u16(zip, at + 32)
    const local = u32(zip, at + 42)
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength))
    at += 46 + nameLength + extraLength + commentLength

    const isSheet = SHEET_PART.test(name)
    if (isSheet && ++counts.sheets > limits.sheets)
      throw new AppError('unprocessable:file_sheet_limit', fileLimitErrors['unprocessable:file_sheet_limit'])
    if (u32(zip, local) !== 0x04034b50) continue
    const dataStart = local + 30 + u16(zip, local + 26) + u16(zip, local + 28)
    const data = zip.subarray(dataStart, Math.min(zip.length, dataStart + compressedSize))
    const look = isSheet
      ? cellCounter(() => {
          if (++counts.cells > limits.cells)
            throw new AppError(
              'unprocessable:file_cell_limit',
              fileLimitErrors['unprocessable:file_cell_limit'],
            )
        })
      : undefined
    if (method === 8) inflateCounting(data, budget, look)
    else {
      // Stored: its size is what it is, and the bytes are already in hand.
      budget.spent += data.length
      if (data.length > budget.entryBytes || budget.spent > budget.totalBytes) throw tooBig()
      look?.(data)
    }
  }
  return counts
}

// ---- PDF -------------------------------------------------------------------------------------

const STREAM = Buffer.from('stream')
const END_STREAM = Buffer.from('endstream')

/**
 * Inflates every zlib-compressed stream of a PDF (FlateDecode, the filter nearly every PDF uses)
 * against the budget. Streams are found by their keywords, the way a damaged-file reader would.
 */
export function measurePdf(pdf: Uint8Array, budget: Budget): void {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
  let at = 0
  for (;;) {
    const keyword = buf.indexOf(STREAM, at)
    if (keyword < 0) return
    at = keyword + STREAM.length
    // `endstream` contains `stream`: skip it.
    if (keyword >= 3 && buf.toString('latin1', keyword - 3, keyword) === 'end') continue
    if (buf[at] === 0x0d) at++
    if (buf[at] !== 0x0a) continue
    at++
    const end = buf.indexOf(END_STREAM, at)
    const data = buf.subarray(at, end < 0 ? buf.length : end)
    const [cmf = 0, flg = 0] = data
    // A zlib header: deflate method, and the check bits that make (CMF*256 + FLG) a multiple of 31.
    if ((cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0) inflateCounting(data, budget, undefined, true)
    if (end < 0) return
    at = end + END_STREAM.length
  }
}
