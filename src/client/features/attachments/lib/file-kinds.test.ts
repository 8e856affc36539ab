import { describe, expect, it } from 'vitest'
import { attachmentFieldFor, isDroppable } from '#contract/attachments.ts'
import { formatFileSize, kindOfFile, mediaTypeOfFile, overLimitMessage } from './file-kinds.ts'

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
