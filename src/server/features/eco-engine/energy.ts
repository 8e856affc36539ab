// The energy the eco engine uses, measured on this machine (shared/impact-methodology.md,
// "actual"): Intel RAPL package counters where the kernel lets us read them, else CodeCarbon's
// fallback, CPU seconds x TDP / logical CPUs.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export type EnergyMethod = 'measured' | 'estimated'

export interface EnergyMeter {
  method: EnergyMethod
  /** A counter reading, to subtract from a later one. */
  read(): number
  /** Joules between two readings. */
  joulesBetween(start: number, end: number): number
}

const RAPL_ROOT = '/sys/class/powercap'

interface RaplZone {
  energyFile: string
  maxRangeUj: number
}

/** The package-level zones (intel-rapl:N, not their sub-zones), when every one is readable. */
export function raplZones(root = RAPL_ROOT): RaplZone[] {
  let names: string[]
  try {
    names = fs.readdirSync(root).filter((n) => /^intel-rapl:\d+$/.test(n))
  } catch {
    return []
  }
  const zones: RaplZone[] = []
  for (const name of names) {
    const energyFile = path.join(root, name, 'energy_uj')
    try {
      Number.parseInt(fs.readFileSync(energyFile, 'utf8'), 10)
      const max = Number.parseInt(fs.readFileSync(path.join(root, name, 'max_energy_range_uj'), 'utf8'), 10)
      zones.push({ energyFile, maxRangeUj: Number.isFinite(max) && max > 0 ? max : 2 ** 32 })
    } catch {
      // Since 2020 energy_uj is root-only on most kernels (CVE-2020-8694): fall back.
      return []
    }
  }
  return zones
}

/** RAPL over every package. Each counter wraps at its max range: a drop means one wrap. */
function raplMeter(zones: RaplZone[]): EnergyMeter {
  const last = zones.map(() => 0)
  const wraps = zones.map(() => 0)
  return {
    method: 'measured',
    read() {
      let sum = 0
      zones.forEach((z, i) => {
        const v = Number.parseInt(fs.readFileSync(z.energyFile, 'utf8'), 10)
        if (v < (last[i] ?? 0)) wraps[i] = (wraps[i] ?? 0) + 1
        last[i] = v
        sum += v + (wraps[i] ?? 0) * z.maxRangeUj
      })
      return sum
    },
    joulesBetween: (a, b) => Math.max(0, b - a) / 1e6,
  }
}

/**
 * CPU time of this process (the engine's threads included: they are ours) times the TDP per
 * logical CPU. The inference threads dominate the process's CPU while a reply generates.
 */
function cpuTimeMeter(tdpW: number, logicalCpus: number): EnergyMeter {
  const wattsPerCpu = tdpW / Math.max(1, logicalCpus)
  return {
    method: 'estimated',
    read() {
      const u = process.cpuUsage()
      return u.user + u.system
    },
    joulesBetween: (a, b) => (Math.max(0, b - a) / 1e6) * wattsPerCpu,
  }
}

export function createEnergyMeter(opts: {
  tdpW: number
  raplRoot?: string
  logicalCpus?: number
}): EnergyMeter {
  const zones = raplZones(opts.raplRoot)
  if (zones.length > 0) return raplMeter(zones)
  return cpuTimeMeter(opts.tdpW, opts.logicalCpus ?? os.availableParallelism())
}
