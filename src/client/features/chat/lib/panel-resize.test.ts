import { describe, expect, it } from 'vitest'
import { resizeByKey } from './panel-resize.ts'

describe('resizeByKey', () => {
  it('steps 10 percent with the arrows', () => {
    expect(resizeByKey(25, 'ArrowRight', false)).toBe(35)
    expect(resizeByKey(25, 'ArrowLeft', false)).toBe(15)
  })
  it('stays within 15 to 40 percent (chat keeps at least 60)', () => {
    expect(resizeByKey(35, 'ArrowRight', false)).toBe(40)
    expect(resizeByKey(18, 'ArrowLeft', false)).toBe(15)
  })
  it('jumps to a limit with Shift, Home or End', () => {
    expect(resizeByKey(25, 'ArrowRight', true)).toBe(40)
    expect(resizeByKey(25, 'ArrowLeft', true)).toBe(15)
    expect(resizeByKey(25, 'Home', false)).toBe(15)
    expect(resizeByKey(25, 'End', false)).toBe(40)
  })
  it('ignores other keys', () => {
    expect(resizeByKey(25, 'ArrowUp', false)).toBeNull()
    expect(resizeByKey(25, 'Enter', false)).toBeNull()
  })
})
