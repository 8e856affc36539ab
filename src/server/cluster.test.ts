import { describe, expect, it } from 'vitest'
import { workerCount } from './cluster.ts'

describe('workerCount', () => {
  const url = 'postgres://loris@127.0.0.1/loris'
  it('is one per core but one on PostgreSQL unless WEB_CONCURRENCY says otherwise', () => {
    expect(workerCount({ DATABASE_URL: url, WEB_CONCURRENCY: undefined }, 8)).toBe(7)
    expect(workerCount({ DATABASE_URL: url, WEB_CONCURRENCY: undefined }, 2)).toBe(1)
    expect(workerCount({ DATABASE_URL: url, WEB_CONCURRENCY: undefined }, 1)).toBe(1)
    expect(workerCount({ DATABASE_URL: url, WEB_CONCURRENCY: 3 }, 8)).toBe(3)
    expect(workerCount({ DATABASE_URL: url, WEB_CONCURRENCY: 2 }, 2)).toBe(2)
  })
  it('is always one on the embedded database, which one process owns', () => {
    expect(workerCount({ DATABASE_URL: undefined, WEB_CONCURRENCY: undefined }, 8)).toBe(1)
    expect(workerCount({ DATABASE_URL: undefined, WEB_CONCURRENCY: 4 }, 8)).toBe(1)
  })
})
