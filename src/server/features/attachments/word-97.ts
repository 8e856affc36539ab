// Text of an old Word (.doc, Word 97-2003) file, read from its piece table ([MS-DOC] 2.4.1): the
// characters only, no formatting. Returns null when the file is not laid out the way we expect
// (Word 6/95 files, encrypted or fast-saved documents); the caller then suggests DOCX or PDF.
import XLSX from 'xlsx'

const FIB_FLAGS = 0x000a
const F_WHICH_TBL_STM = 0x0200
const F_ENCRYPTED = 0x0100
const FC_CLX = 0x01a2
const LCB_CLX = 0x01a6

// xlsx bundles the cfb reader but types it as any; this is the part we use.
interface CfbContainer {
  FullPaths: string[]
}
interface CfbReader {
  read(data: Uint8Array, opts: { type: 'buffer' }): CfbContainer
  find(cfb: CfbContainer, path: string): { content?: Uint8Array | number[] } | null
}
export const cfbReader = XLSX.CFB as CfbReader

function stream(cfb: CfbContainer, name: string): Buffer | null {
  const entry = cfbReader.find(cfb, name)
  return entry?.content ? Buffer.from(entry.content as Uint8Array) : null
}

const FIELD_BEGIN = 0x13
const FIELD_SEPARATOR = 0x14
const FIELD_END = 0x15
const CELL_MARK = 0x07

/**
 * Field codes (from 0x13 to 0x14, e.g. `HYPERLINK "..."`) are dropped and their results kept;
 * cell marks become tabs, paragraph and page breaks new lines, other control characters go.
 */
function clean(raw: string): string {
  let out = ''
  let inCode = 0
  for (const ch of raw) {
    const code = ch.charCodeAt(0)
    if (code === FIELD_BEGIN) inCode++
    else if (code === FIELD_SEPARATOR || code === FIELD_END) inCode = Math.max(0, inCode - 1)
    else if (inCode > 0) continue
    else if (code === CELL_MARK) out += '\t'
    else if (code === 0x0d || code === 0x0b || code === 0x0c) out += '\n'
    else if (code >= 0x20 || code === 0x09 || code === 0x0a) out += ch
  }
  return out
}

export function readWord97Text(bytes: Uint8Array): string | null {
  try {
    const cfb = cfbReader.read(bytes, { type: 'buffer' })
    const word = stream(cfb, 'WordDocument')
    if (!word || word.length < LCB_CLX + 4) return null
    const flags = word.readUInt16LE(FIB_FLAGS)
    if (flags & F_ENCRYPTED) return null
    const table = stream(cfb, flags & F_WHICH_TBL_STM ? '1Table' : '0Table')
    const fcClx = word.readUInt32LE(FC_CLX)
    const lcbClx = word.readUInt32LE(LCB_CLX)
    if (!table || lcbClx === 0 || fcClx + lcbClx > table.length) return null
    const clx = table.subarray(fcClx, fcClx + lcbClx)
    let at = 0
    // Skip the Prc entries (formatting), reach the Pcdt (the piece table).
    while (at < clx.length && clx[at] === 0x01) at += 3 + clx.readUInt16LE(at + 1)
    if (clx[at] !== 0x02) return null
    const lcb = clx.readUInt32LE(at + 1)
    const plc = clx.subarray(at + 5, at + 5 + lcb)
    const pieces = (lcb - 4) / 12
    if (!Number.isInteger(pieces) || pieces < 1) return null
    let text = ''
    for (let i = 0; i < pieces; i++) {
      const start = plc.readUInt32LE(i * 4)
      const end = plc.readUInt32LE((i + 1) * 4)
      const pcd = (pieces + 1) * 4 + i * 8
      const fc = plc.readUInt32LE(pcd + 2)
      const compressed = (fc & 0x40000000) !== 0
      const offset = fc & 0x3fffffff
      const count = end - start
      text += compressed
        ? word.subarray(offset / 2, offset / 2 + count).toString('latin1')
        : word.subarray(offset, offset + count * 2).toString('utf16le')
    }
    return clean(text)
  } catch {
    return null
  }
}
