import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createEnergyMeter } from './energy.ts'

let root: string
afterEach(() => rm(root, { recursive: true, force: true }))

async function powercap(zones: Record<string, { uj: number; max: number }>) {
  root = await mkdtemp(path.join(tmpdir(), 'loris-rapl-'))
  for (const [name, z] of Object.entries(zones)) {
    await mkdir(path.join(root, name))
    await writeFile(path.join(root, name, 'energy_uj'), `${z.uj}\n`)
    await writeFile(path.join(root, name, 'max_energy_range_uj'), `${z.max}\n`)
  }
}
const set = (zone: string, uj: number) => writeFile(path.join(root, zone, 'energy_uj'), `${uj}\n`)

describe('energy meter', () => {
  it('reads RAPL package counters where readable (sub-zones ignored), through a wrap-around', async () => {
    await powercap({
      'intel-rapl:0': { uj: 1_000_000, max: 10_000_000 },
      'intel-rapl:1': { uj: 500_000, max: 10_000_000 },
      // A sub-zone (the cores of package 0) is inside package 0's count already.
      'intel-rapl:0:0': { uj: 999_999_999, max: 10_000_000 },
    })
    const meter = createEnergyMeter({ tdpW: 85, raplRoot: root })
    expect(meter.method).toBe('measured')
    const start = meter.read()
    await set('intel-rapl:0', 3_000_000)
    await set('intel-rapl:1', 1_500_000)
    expect(meter.joulesBetween(start, meter.read())).toBeCloseTo(3, 9)
    // Package 0 wraps at 10 J: 3 J -> 0.5 J is 7.5 J more.
    const before = meter.read()
    await set('intel-rapl:0', 500_000)
    expect(meter.joulesBetween(before, meter.read())).toBeCloseTo(7.5, 9)
  })

  it('falls back to CPU time x TDP per logical CPU when the counters are not readable', async () => {
    await powercap({ 'intel-rapl:0': { uj: 1, max: 10 } })
    await chmod(path.join(root, 'intel-rapl:0', 'energy_uj'), 0o000)
    const readable = process.getuid?.() === 0 // root reads anything: then remove the file instead
    if (readable) await rm(path.join(root, 'intel-rapl:0', 'energy_uj'))
    const meter = createEnergyMeter({ tdpW: 80, raplRoot: root, logicalCpus: 4 })
    expect(meter.method).toBe('estimated')
    // 2 CPU seconds at 80 W / 4 CPUs = 40 J.
    expect(meter.joulesBetween(0, 2_000_000)).toBe(40)
    const a = meter.read()
    let x = 0
    for (let i = 0; i < 2e6; i++) x += Math.sqrt(i)
    expect(x).toBeGreaterThan(0)
    expect(meter.joulesBetween(a, meter.read())).toBeGreaterThan(0)
  })
})
