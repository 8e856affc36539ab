import { describe, expect, it } from 'vitest'
import { BackgroundWork } from './background-work.ts'

describe('BackgroundWork', () => {
  it('waits for tracked work, including work that fails', async () => {
    const work = new BackgroundWork()
    let finished = false
    work.track(new Promise((r) => setTimeout(r, 20)).then(() => (finished = true)))
    work.track(Promise.reject(new Error('ignored')))
    expect(await work.idle(5_000)).toBe(true)
    expect(finished).toBe(true)
    expect(work.size).toBe(0)
  })

  it('gives up after the timeout', async () => {
    const work = new BackgroundWork()
    work.track(new Promise(() => {}))
    expect(await work.idle(10)).toBe(false)
    expect(work.size).toBe(1)
  })

  it('closes what was kept open at stop, each once, past a closer that fails', async () => {
    const work = new BackgroundWork()
    const closed: string[] = []
    work.closeAtStop(async () => {
      throw new Error('gone already')
    })
    work.closeAtStop(async () => {
      closed.push('mcp')
    })
    await work.close()
    await work.close()
    expect(closed).toEqual(['mcp'])
  })
})
