// What the trees Loris plants absorb, from one public source: the US EPA's Greenhouse Gas
// Equivalencies Calculator counts 0.060 metric tons of CO2 for an urban tree seedling grown for
// 10 years (its "tree seedlings grown for 10 years" equivalency, survival rates included).

/** kg of CO2 one planted tree absorbs over its first 10 years (US EPA). */
export const TREE_KG_CO2_PER_10_YEARS = 60

export const TREE_SOURCE = {
  name: 'US EPA, Greenhouse Gas Equivalencies Calculator',
  url: 'https://www.epa.gov/energy/greenhouse-gas-equivalencies-calculator-calculations-and-references',
} as const

/** '1 tree planted', '3 trees planted'. */
export function treesPlanted(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'tree' : 'trees'} planted`
}

/** What `n` trees absorb over their first 10 years, in words. */
export function treesAbsorb(n: number): string {
  const kg = (n * TREE_KG_CO2_PER_10_YEARS).toLocaleString('en-US')
  return n === 1
    ? `It absorbs about ${kg} kg of CO2 over its first 10 years`
    : `Together they absorb about ${kg} kg of CO2 over their first 10 years`
}
