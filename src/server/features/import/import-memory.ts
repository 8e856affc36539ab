// Measures, in a process of its own, the resident memory one import file takes as the server reads
// it: the upload read from `argv[2]` after the process has settled, the worker reading it, and each
// file it carries written to a disk storage in `argv[3]`. Prints { peak, after } as JSON: the
// growth over the idle process at its highest, and once the import ended and a collection ran.
// Run with --expose-gc (import-limits.test.ts): a process that has run other tests keeps memory it
// freed, which an import would reuse unseen.
import { readFileSync } from 'node:fs'
import { createDiskStorage } from '#server/lib/storage.ts'
import { readImportFile } from './parse.ts'

const [file, dir] = process.argv.slice(2)
if (!file || !dir || typeof globalThis.gc !== 'function')
  throw new Error('usage: node --expose-gc --import tsx import-memory.ts <import file> <storage dir>')
const collect = globalThis.gc
const storage = createDiskStorage(dir)
const settle = () => new Promise((resolve) => setTimeout(resolve, 50))

// The worker's code loads once before the idle process is measured, as in a running server.
await readImportFile(new TextEncoder().encode('[]'), {
  file: async () => {},
  fileOverBudget: () => {},
  batch: async () => {},
})
collect()
await settle()
const idle = process.memoryUsage.rss()
let peak = idle
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss())
}, 5)
const read = readFileSync(file)
const upload = new Uint8Array(read.buffer, read.byteOffset, read.length)
let files = 0
await readImportFile(
  upload,
  {
    file: async (_path, bytes) => {
      await storage.put(bytes)
      files++
    },
    fileOverBudget: () => {},
    batch: async () => {},
  },
  { transfer: true },
)
clearInterval(sampler)
peak = Math.max(peak, process.memoryUsage.rss())
collect()
await settle()
process.stdout.write(JSON.stringify({ files, peak: peak - idle, after: process.memoryUsage.rss() - idle }))
