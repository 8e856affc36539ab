import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import XLSX from 'xlsx'
import { AppError } from '#server/lib/app-error.ts'
import { extractDocumentText } from './extract.ts'
import { sniff } from './sniff.ts'
import { readWord97Text } from './word-97.ts'

const fixture = async (name: string) => new Uint8Array(await readFile(join('tests/fixtures', name)))

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`)
  return err
}

/** A minimal Word 97 file: a FIB pointing at a one-piece table in 0Table ([MS-DOC] 2.4.1). */
function word97(text: string): Uint8Array {
  const word = Buffer.alloc(0x400 + text.length)
  word.writeUInt16LE(0xa5ec, 0) // wIdent
  const clx = Buffer.alloc(1 + 4 + 8 + 8)
  clx[0] = 0x02
  clx.writeUInt32LE(16, 1)
  clx.writeUInt32LE(0, 5)
  clx.writeUInt32LE(text.length, 9)
  // FcCompressed: 8-bit text at fc / 2.
  clx.writeUInt32LE(((0x400 * 2) | 0x40000000) >>> 0, 15)
  word.write(text, 0x400, 'latin1')
  word.writeUInt32LE(0, 0x01a2)
  word.writeUInt32LE(clx.length, 0x01a6)
  const CFB = XLSX.CFB as {
    utils: { cfb_new(): unknown; cfb_add(c: unknown, name: string, data: Buffer): void }
    write(c: unknown, o: { type: 'buffer' }): Buffer
  }
  const cfb = CFB.utils.cfb_new()
  CFB.utils.cfb_add(cfb, '/WordDocument', word)
  CFB.utils.cfb_add(cfb, '/0Table', clx)
  return new Uint8Array(CFB.write(cfb, { type: 'buffer' }))
}

describe('sniff: the type comes from the bytes', () => {
  it.each([
    ['image.png', 'image', 'image/png'],
    ['photo.jpg', 'image', 'image/jpeg'],
    ['animation.gif', 'image', 'image/gif'],
    ['image.webp', 'image', 'image/webp'],
    ['script.svg', 'image', 'image/svg+xml'],
    ['document.pdf', 'document', 'application/pdf'],
    ['document.docx', 'document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['sheet.xlsx', 'document', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['sheet.xls', 'document', 'application/vnd.ms-excel'],
    ['data.csv', 'document', 'text/csv'],
    ['notes.txt', 'document', 'text/plain'],
    ['goforward.webm', 'audio', 'audio/webm'],
    ['goforward.wav', 'audio', 'audio/wav'],
  ])('%s is %s (%s)', async (name, kind, mimeType) => {
    expect(await sniff(await fixture(name), name)).toEqual({ kind, mimeType })
  })

  it('ignores the name: a PNG called .pdf is a PNG', async () => {
    expect(await sniff(await fixture('image.png'), 'report.pdf')).toEqual({
      kind: 'image',
      mimeType: 'image/png',
    })
  })

  it('refuses an executable renamed to .png with 415', async () => {
    const err = await refusal(sniff(await fixture('program.png'), 'program.png'))
    expect(err.status).toBe(415)
    expect(err.message).toMatch(/^This type of file is not supported\. Attach images/)
  })

  it('refuses random bytes, and a zip that is not an Office file', async () => {
    expect((await refusal(sniff(await fixture('not-audio.webm'), 'x.webm'))).status).toBe(415)
    const zip = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])
    expect((await refusal(sniff(zip, 'a.docx'))).status).toBe(415)
  })

  it('tells old Word from old Excel inside the shared container', async () => {
    expect(await sniff(word97('Hello'), 'a.doc')).toEqual({
      kind: 'document',
      mimeType: 'application/msword',
    })
  })
})

describe('extractDocumentText', () => {
  it.each([
    ['document.pdf', 'application/pdf', 'The loris sleeps during the day and forages at night.'],
    [
      'document.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'Reforestation partners plant native trees.',
    ],
    ['sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'January,120'],
    ['sheet.xls', 'application/vnd.ms-excel', 'February,95'],
    ['data.csv', 'text/csv', 'Month,Trees'],
    ['notes.txt', 'text/plain', 'compost on Tuesdays'],
  ])('reads %s', async (name, mimeType, expected) => {
    const result = await extractDocumentText(await fixture(name), mimeType)
    expect(result.text).toContain(expected)
    expect(result.truncated).toBe(false)
  })

  it('names the sheet of a spreadsheet', async () => {
    const { text } = await extractDocumentText(
      await fixture('sheet.xlsx'),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    expect(text).toBe('Sheet "Trees":\nMonth,Trees\nJanuary,120\nFebruary,95')
  })

  it('reads the text of an old Word file from its piece table', async () => {
    const doc = word97('Trees planted\rby the loris team')
    expect(readWord97Text(doc)).toBe('Trees planted\nby the loris team')
    expect((await extractDocumentText(doc, 'application/msword')).text).toBe(
      'Trees planted\nby the loris team',
    )
  })

  it('answers 422 suggesting DOCX or PDF for a .doc it cannot read', async () => {
    const doc = word97('x')
    const broken = new Uint8Array(doc)
    const err = await refusal(extractDocumentText(broken.slice(0, 512), 'application/msword'))
    expect(err.status).toBe(422)
    expect(err.message).toBe(
      'The text of this old Word (.doc) file cannot be read. Save it as DOCX or PDF and attach it again.',
    )
  })

  it('answers 422 for a scanned PDF with no text', async () => {
    const err = await refusal(extractDocumentText(await fixture('scanned.pdf'), 'application/pdf'))
    expect(err.status).toBe(422)
    expect(err.message).toMatch(/^No text could be read from this PDF/)
  })

  it('cuts a long document to the budget and says how long it was', async () => {
    const long = new TextEncoder().encode('loris '.repeat(20))
    const result = await extractDocumentText(long, 'text/plain', 50)
    expect(result).toEqual({
      text: 'loris '.repeat(20).trim().slice(0, 50),
      totalChars: 119,
      truncated: true,
    })
  })
})
