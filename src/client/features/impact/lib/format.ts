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
