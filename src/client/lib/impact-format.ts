// Grams and watt-hours as people read them: enough digits to see a small reply, no more.

/** 0 g, <0.01 g, 0.42 g, 12.3 g, 1.25 kg. */
export function formatGrams(g: number): string {
  if (!Number.isFinite(g) || g <= 0) return '0 g'
  if (g < 0.01) return '<0.01 g'
  if (g < 10) return `${trim(g.toFixed(2))} g`
  if (g < 1000) return `${trim(g.toFixed(1))} g`
  return `${trim((g / 1000).toFixed(2))} kg`
}

/** Three significant digits for the small numbers of one reply: 0.0405, 1.23, 45.6. */
export function formatSmall(x: number): string {
  if (x === 0) return '0'
  if (x >= 100) return Math.round(x).toLocaleString('en-US')
  return String(Number(x.toPrecision(3)))
}

/** 0.0224 to 0.0286 */
export function formatRange(r: { min: number; max: number }, unit: string): string {
  const min = formatSmall(r.min)
  const max = formatSmall(r.max)
  return min === max ? `${min} ${unit}` : `${min} to ${max} ${unit}`
}

function trim(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed
}

/** Watt-hours as people read them: 0.0405 Wh, 12.3 Wh, 1.25 kWh. */
export function formatEnergy(wh: number): string {
  if (!Number.isFinite(wh) || wh <= 0) return '0 Wh'
  if (wh < 1000) return `${formatSmall(wh)} Wh`
  return `${formatSmall(wh / 1000)} kWh`
}

/** Litres of water: a reply is millilitres (1.23 mL), a month can be litres (2.5 L). */
export function formatWater(litres: number): string {
  if (!Number.isFinite(litres) || litres <= 0) return '0 mL'
  if (litres < 1) return `${formatSmall(litres * 1000)} mL`
  return `${formatSmall(litres)} L`
}

/** A range in one unit chosen by its upper bound: "0.0405 to 0.0515 Wh", "0.85 to 1.7 mL". */
export function formatRangeWith(r: { min: number; max: number }, format: (x: number) => string): string {
  const max = format(r.max)
  const unit = max.slice(max.lastIndexOf(' '))
  const min = format(r.min)
  // Same unit: say it once; different units (a range across 1 L): say both.
  if (min.endsWith(unit)) {
    const low = min.slice(0, -unit.length)
    const high = max.slice(0, -unit.length)
    return low === high ? max : `${low} to ${high}${unit}`
  }
  return `${min} to ${max}`
}

/** Each impact metric's figure as text. */
export const formatImpact = { co2: formatGrams, energy: formatEnergy, water: formatWater }

/** Each impact metric's chart axis ticks: grams, watt-hours, and millilitres from litres. */
export const impactAxis = {
  co2: (g: number) => `${formatSmall(g)} g`,
  energy: (wh: number) => `${formatSmall(wh)} Wh`,
  water: (l: number) => `${formatSmall(l * 1000)} mL`,
}
