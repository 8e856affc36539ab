import { describe, expect, it } from 'vitest'
import { attachmentFieldFor, isDroppable } from '#contract/attachments.ts'
import {
  documentTypeLabel,
  formatFileSize,
  kindOfFile,
  mediaTypeOfFile,
  overLimitMessage,
} from './file-kinds.ts'

const MB = 1024 * 1024

describe('attachment routing (spec 5)', () => {
  it.each([
    ['image/png', 'image'],
    ['image/svg+xml', 'image'],
    ['audio/webm', 'audio'],
    ['audio/webm;codecs=opus', 'audio'],
    ['application/pdf', 'file'],
    ['text/csv', 'file'],
    ['', 'file'],
  ])('%s goes as field %s', (type, field) => {
    expect(attachmentFieldFor(type)).toBe(field)
  })

  it('kinds and how the exchange shows them', () => {
    expect(kindOfFile({ type: 'image/gif' })).toBe('image')
    expect(mediaTypeOfFile({ type: 'application/pdf' })).toBe('document')
    expect(mediaTypeOfFile({ type: 'audio/webm' })).toBeNull()
  })
})

describe('dropped files (spec 5)', () => {
  it.each([
    ['image/jpeg', 'a.jpg'],
    ['image/jpg', 'a.jpg'],
    ['image/png', 'a.png'],
    ['image/gif', 'a.gif'],
    ['image/webp', 'a.webp'],
    ['image/svg+xml', 'a.svg'],
    ['image/avif', 'a.avif'],
    ['application/pdf', 'a.pdf'],
    ['application/msword', 'a.doc'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx'],
    ['text/plain', 'a.txt'],
    ['text/csv', 'a.csv'],
    ['application/vnd.ms-excel', 'a.xls'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'a.xlsx'],
    ['', 'data.csv'],
  ])('takes %s (%s)', (type, name) => {
    expect(isDroppable({ type, name })).toBe(true)
  })

  it.each([
    ['application/zip', 'a.zip'],
    ['audio/webm', 'a.webm'],
    ['video/mp4', 'a.mp4'],
    ['application/x-msdownload', 'a.exe'],
    ['', 'program'],
  ])('ignores %s (%s)', (type, name) => {
    expect(isDroppable({ type, name })).toBe(false)
  })
})

describe('limits said before uploading', () => {
  it('names the limit of the kind', () => {
    expect(overLimitMessage({ type: 'image/png', size: 10 * MB + 1 })).toBe('Images can be at most 10 MB.')
    expect(overLimitMessage({ type: 'image/png', size: 10 * MB })).toBeNull()
    expect(overLimitMessage({ type: 'application/pdf', size: 20 * MB + 1 })).toBe(
      'Documents can be at most 20 MB.',
    )
    expect(overLimitMessage({ type: 'audio/webm', size: 25 * MB + 1 })).toBe(
      'Audio files can be at most 25 MB.',
    )
  })

  it('formats sizes', () => {
    expect(formatFileSize(821)).toBe('821 B')
    expect(formatFileSize(8381)).toBe('8.2 KB')
    expect(formatFileSize(12.5 * MB)).toBe('12.5 MB')
  })
})

describe('the document card names the type', () => {
  it.each([
    ['application/pdf', 'scan.bin', 'PDF'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', null, 'Word document'],
    ['application/msword', 'old.doc', 'Word document'],
    ['application/vnd.ms-excel', 'q1.xls', 'Excel spreadsheet'],
    ['text/csv; charset=utf-8', 'data.csv', 'CSV'],
    ['text/plain', 'notes.md', 'Text file'],
    // A file still being sent: the browser may give no type, the name tells.
    ['', 'Report.PDF', 'PDF'],
    [null, 'sheet.xlsx', 'Excel spreadsheet'],
    ['application/octet-stream', 'archive', null],
    [null, '.txt', null],
    [null, null, null],
  ])('%s %s is %s', (mime, name, label) => {
    expect(documentTypeLabel(mime, name)).toBe(label)
  })
})
