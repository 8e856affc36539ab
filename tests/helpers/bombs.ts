// Files built to hurt a parser: small on disk, huge once read. Built in memory by the
// tests that send them. Large content is one 1 MB chunk deflated once with a full flush (which
// makes the compressed segment self-contained) and repeated, so a 1 GB entry costs well under a
// second to build; small parts are compressed with fflate.
import zlib from 'node:zlib'
import { deflateSync as fflateDeflate, strToU8 } from 'fflate'

export const MB = 1024 * 1024

interface Deflated {
  /** Raw deflate data. */
  data: Uint8Array
  crc: number
  size: number
}

/** `head`, then `chunk` repeated until about `bytes`, then `tail`, as one raw deflate stream. */
export function repeatDeflated(head: string, chunk: string, bytes: number, tail: string): Deflated {
  const unit = Buffer.from(chunk.repeat(Math.max(1, Math.floor(MB / chunk.length))))
  const times = Math.ceil(bytes / unit.length)
  const flush = { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH }
  const headBytes = Buffer.from(head)
  const tailBytes = Buffer.from(tail)
  const segment = zlib.deflateRawSync(unit, flush)
  const parts = [zlib.deflateRawSync(headBytes, flush)]
  let crc = zlib.crc32(headBytes)
  for (let i = 0; i < times; i++) {
    parts.push(segment)
    crc = zlib.crc32(unit, crc)
  }
  parts.push(zlib.deflateRawSync(tailBytes, { level: 9 }))
  crc = zlib.crc32(tailBytes, crc)
  return {
    data: new Uint8Array(Buffer.concat(parts)),
    crc,
    size: headBytes.length + times * unit.length + tailBytes.length,
  }
}

const small = (text: string): Deflated => {
  const bytes = strToU8(text)
  return { data: fflateDeflate(bytes, { level: 9 }), crc: zlib.crc32(bytes), size: bytes.length }
}

/**
 * The fields a local header (from offset 4) and a central directory header (from 6) both have:
 * version needed, flags, method (deflate), time, date, CRC, sizes and the name's length.
 */
function writeEntryFields(header: Buffer, at: number, entry: Deflated, nameLength: number) {
  header.writeUInt16LE(20, at)
  header.writeUInt16LE(8, at + 4)
  header.writeUInt16LE(0x21, at + 8)
  header.writeUInt32LE(entry.crc, at + 10)
  header.writeUInt32LE(entry.data.length, at + 14)
  header.writeUInt32LE(entry.size, at + 18)
  header.writeUInt16LE(nameLength, at + 22)
}

/** A zip of deflated entries (what docx and xlsx are). */
export function zip(entries: Record<string, string | Deflated>): Uint8Array {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [name, content] of Object.entries(entries)) {
    const entry = typeof content === 'string' ? small(content) : content
    const fileName = Buffer.from(name)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    writeEntryFields(local, 4, entry, fileName.length)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    writeEntryFields(central, 6, entry, fileName.length)
    central.writeUInt32LE(offset, 42)
    locals.push(local, fileName, Buffer.from(entry.data))
    centrals.push(central, fileName)
    offset += 30 + fileName.length + entry.data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(Object.keys(entries).length, 8)
  end.writeUInt16LE(Object.keys(entries).length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...locals, directory, end]))
}

const SHEET_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships'

/** An xlsx with one sheet whose XML is `sheet` (a deflated <worksheet>). */
export function xlsx(sheet: Deflated): Uint8Array {
  return zip({
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${SHEET_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': sheet,
  })
}

const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${SHEET_NS}"><sheetData>`
const SHEET_TAIL = '</sheetData></worksheet>'

/** About `cells` numeric cells, ten to a row. */
export const manyCellsXlsx = (cells: number) => {
  const row = `<row>${'<c><v>7</v></c>'.repeat(10)}</row>`
  return xlsx(repeatDeflated(SHEET_HEAD, row, (cells / 10) * row.length, SHEET_TAIL))
}

/** One cell holding `bytes` of text: the sheet XML inflates to about that size. */
export const hugeSheetXlsx = (bytes: number) =>
  xlsx(
    repeatDeflated(
      `${SHEET_HEAD}<row><c t="inlineStr"><is><t>`,
      'spreadsheet ',
      bytes,
      `</t></is></c></row>${SHEET_TAIL}`,
    ),
  )

/** A docx whose document.xml holds about `bytes` of text. */
export function hugeDocx(bytes: number): Uint8Array {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
  return zip({
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/document.xml': repeatDeflated(
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>`,
      '<w:p><w:r><w:t>All work and no play makes a dull parser.</w:t></w:r></w:p>',
      bytes,
      '</w:body></w:document>',
    ),
  })
}

function adler32(parts: Iterable<Buffer>): number {
  let a = 1
  let b = 0
  for (const part of parts) {
    for (let i = 0; i < part.length; ) {
      // 5552 bytes is the most that cannot overflow before the modulo (zlib's NMAX).
      const end = Math.min(part.length, i + 5552)
      for (; i < end; i++) {
        a += part[i] as number
        b += a
      }
      a %= 65521
      b %= 65521
    }
  }
  return ((b << 16) | a) >>> 0
}

/** A one-page PDF whose content stream (FlateDecode) inflates to about `bytes`. */
export function streamBombPdf(bytes: number): Uint8Array {
  const line = 'BT /F1 12 Tf 72 720 Td (All work and no play) Tj ET\n'
  const raw = repeatDeflated('', line, bytes, '')
  // The checksum zlib puts after the data; computed over what inflating gives back.
  const unit = Buffer.from(line.repeat(Math.max(1, Math.floor(MB / line.length))))
  const times = Math.ceil(bytes / unit.length)
  const check = Buffer.alloc(4)
  check.writeUInt32BE(
    adler32(
      (function* () {
        for (let i = 0; i < times; i++) yield unit
      })(),
    ),
  )
  const stream = Buffer.concat([Buffer.from([0x78, 0xda]), raw.data, check])
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n')]
  const offsets: number[] = []
  let length = chunks[0]?.length ?? 0
  const add = (b: Buffer) => {
    chunks.push(b)
    length += b.length
  }
  objects.forEach((body, i) => {
    offsets.push(length)
    if (body === null) {
      add(Buffer.from(`${i + 1} 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`))
      add(stream)
      add(Buffer.from('\nendstream\nendobj\n'))
    } else add(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`))
  })
  const xref = length
  add(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  )
  return new Uint8Array(Buffer.concat(chunks))
}

/** A plain PDF of `pages` pages, each saying "Page N" (uncompressed, for page-limit tests). */
export function pagesPdf(pages: number): Uint8Array {
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pages} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  for (let i = 0; i < pages; i++) {
    const content = `BT /F1 12 Tf 72 720 Td (Page ${i + 1}) Tj ET`
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${5 + i * 2} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    )
  }
  let out = '%PDF-1.7\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(out)
}
