// The parse pool's own promises: a file past the time or memory limit is refused with a 422 naming
// it and its worker replaced, a full queue is a 503, and idle workers never keep a process alive.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fileLimitErrors } from '#contract/errors.ts'
import { hugeDocx, MB, manyCellsXlsx } from '../../../../tests/helpers/bombs.ts'
import { ParsePool } from './parse-pool.ts'

const text = (s: string) => new TextEncoder().encode(s)
const pools: ParsePool[] = []
const pool = (opts: ConstructorParameters<typeof ParsePool>[0]) => {
  const p = new ParsePool(opts)
  pools.push(p)
  return p
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()))
})

describe('the parse pool', () => {
  it('reads a file in a worker: its kind and its text', async () => {
    const result = await pool({}).inspect(await readFile('tests/fixtures/sheet.xlsx'), 'sheet.xlsx')
    expect(result.sniffed.mimeType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(result.extracted?.text).toContain('Sheet "Trees":\nMonth,Trees\nJanuary,120')
  })

  it('ends a worker past the time limit with a 422 naming it, and reads the next file with a new one', async () => {
    const p = pool({ size: 1, timeLimitMs: 300 })
    // Under the cell limit, but far more than 300 ms of work for xlsx.
    await expect(p.inspect(manyCellsXlsx(150_000), 'slow.xlsx')).rejects.toMatchObject({
      code: 'unprocessable:file_time_limit',
      status: 422,
      message: fileLimitErrors['unprocessable:file_time_limit'],
    })
    expect(p.workers).toBe(0)
    const next = await p.inspect(text('still here'), 'notes.txt')
    expect(next.extracted?.text).toBe('still here')
    expect(p.workers).toBe(1)
  })

  it('ends a worker past its memory cap with a 422 naming the limit', async () => {
    const p = pool({ size: 1, memoryMb: 64, timeLimitMs: 30_000 })
    // 45 MB of XML is under the inflate limit; mammoth's document tree needs far more than 64 MB.
    await expect(p.inspect(hugeDocx(45 * MB), 'big.docx')).rejects.toMatchObject({
      code: 'unprocessable:file_memory_limit',
      status: 422,
    })
    expect((await p.inspect(text('after'), 'notes.txt')).extracted?.text).toBe('after')
  })

  it('refuses a file with 503 when every worker is busy and the queue is full', async () => {
    const p = pool({ size: 1, maxQueue: 1 })
    const sends = [1, 2, 3].map((n) => p.inspect(text(`file ${n}`), `${n}.txt`))
    const [first, , last] = await Promise.allSettled(sends)
    expect(first).toMatchObject({ status: 'fulfilled' })
    expect(last).toMatchObject({
      status: 'rejected',
      reason: { code: 'service_unavailable:file_reader_busy', status: 503 },
    })
  })
})

describe('at shutdown', () => {
  it('idle workers do not keep the process alive', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loris-pool-'))
    try {
      const script = join(dir, 'read-one.mts')
      await writeFile(
        script,
        `import { ParsePool } from ${JSON.stringify(join(process.cwd(), 'src/server/features/attachments/parse-pool.ts'))}
const pool = new ParsePool({ idleMs: 600_000 })
const read = await pool.inspect(new TextEncoder().encode('bye'), 'a.txt')
console.log(read.extracted.text, pool.workers)
`,
      )
      const started = Date.now()
      const out = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['--import', 'tsx', script], { timeout: 30_000 }, (err, stdout) =>
          err ? reject(err) : resolve(stdout),
        ),
      )
      // The worker was alive (and idle for ten minutes to come) when the script ended.
      expect(out.trim()).toBe('bye 1')
      expect(Date.now() - started).toBeLessThan(30_000)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
