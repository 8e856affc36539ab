// The whole EcoLogits catalogue in the browser: the how-it-works calculator picks models by search
// and keyboard alone, compares them side by side with energy, water, CO2 and the model's warnings
// in words, and the Loris eco row shows measured figures or says it has none; the Consumption
// chart switches between CO2, energy and water.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  formatEnergy,
  formatGrams,
  formatRange,
  formatRangeWith,
  formatWater,
} from '#client/lib/impact-format.ts'
import type { LocalEcoFigures } from '#contract/eco-engine.ts'
import type { Co2HistoryResponse, ImpactEstimateResponse } from '#contract/impact.ts'
import { ConsumptionTab, ImpactCalculator, ImpactChat } from '../pages/impact-pages.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'
import { reportOnFailure } from './support/failure-report.ts'

const h = chatHarnessForFile({ emailPrefix: 'catalogue', resetStandIn: false })

// GET /api/impact/local-eco belongs to the eco engine issue (its contract is src/contract/
// eco-engine.ts); these tests answer it in the browser so both of its states are exercised
// whichever branch the server was built from.
async function answerLocalEco(page: Page, answer: LocalEcoFigures | 'fail') {
  await page.route('**/api/impact/local-eco', (route) =>
    answer === 'fail'
      ? route.abort('connectionfailed')
      : route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) }),
  )
}

const MEASURED: LocalEcoFigures = {
  model: 'Loris eco (SmolLM2 360M)',
  inProcess: true,
  samples: 12,
  method: 'estimated',
  energyKwhPerToken: 2e-7,
  gco2eqPerToken: 1e-5,
  zone: 'FRA',
}

async function estimate(page: Page, model: string, outputTokens = 500) {
  const q = new URLSearchParams({ model, outputTokens: String(outputTokens) })
  const res = await page.request.get(`${h.server.url}/api/impact/estimate?${q}`)
  expect(res.status()).toBe(200)
  return (await res.json()) as ImpactEstimateResponse
}

describe('impact catalogue', () => {
  it('picks models by search and keyboard, and compares them with energy, water, CO2 and warnings', async () => {
    const { page, unexpectedErrors, explain } = await h.browser.newPage()
    reportOnFailure({ explain }, h.server)
    await answerLocalEco(page, MEASURED)
    const calculator = new ImpactCalculator(page, h.server.url)
    await calculator.open()

    // Type a family, Enter takes the first match.
    const claude = await calculator.pickWithKeyboard('claude sonnet 4-5')
    expect(claude).toBe('claude-sonnet-4-5-20250929')
    // Provider names are searchable too, and the arrow keys move down the matches.
    await calculator.addModel().focus()
    await page.keyboard.press('Enter')
    await page.keyboard.type('hugging llama 3.1 8b')
    const listbox = page.getByRole('listbox', { name: 'Search models' })
    const options = listbox.getByRole('option')
    expect(await options.evaluateAll((els) => els.map((e) => e.getAttribute('data-value')))).toEqual([
      'meta-llama/Meta-Llama-3.1-8B',
      'meta-llama/Meta-Llama-3.1-8B-Instruct',
    ])
    expect(await calculator.activeOption()).toBe('meta-llama/Meta-Llama-3.1-8B')
    await page.keyboard.press('ArrowDown')
    expect(await calculator.activeOption()).toBe('meta-llama/Meta-Llama-3.1-8B-Instruct')
    await page.keyboard.press('ArrowDown') // wraps to the first
    expect(await calculator.activeOption()).toBe('meta-llama/Meta-Llama-3.1-8B')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('Enter')
    await calculator.search().waitFor({ state: 'detached' })
    const llama = 'meta-llama/Meta-Llama-3.1-8B-Instruct'

    // Grouped by provider: "mistral large" is served by Mistral AI and on Hugging Face.
    await calculator.addModel().focus()
    await page.keyboard.press('Enter')
    await page.keyboard.type('mistral large')
    const groups = listbox.getByRole('group')
    const groupNames = await groups.evaluateAll((els) =>
      els.map((e) => document.getElementById(e.getAttribute('aria-labelledby') ?? '')?.textContent),
    )
    expect(groupNames).toEqual(['Hugging Face', 'Mistral AI'])
    await listbox
      .getByRole('group', { name: 'Mistral AI' })
      .getByRole('option', { name: /mistral-large-2411/ })
      .waitFor()
    const mistral = await (async () => {
      await page.keyboard.press('ArrowDown')
      return calculator.activeOption()
    })()
    // Escape closes without adding, and gives the keyboard back to the trigger.
    await page.keyboard.press('Escape')
    await calculator.search().waitFor({ state: 'detached' })
    expect(await calculator.addModel().evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await calculator.row(mistral!).count()).toBe(0)
    // A chosen model is ticked, not offered twice; nothing matching says so.
    await page.keyboard.press('Enter')
    await page.keyboard.type('gpt-4o-mini-2024')
    expect(
      await listbox.getByRole('option', { name: /gpt-4o-mini-2024-07-18/ }).getAttribute('aria-disabled'),
    ).toBeNull()
    await calculator.search().fill('gpt-4o')
    expect(await listbox.getByRole('option', { name: /^gpt-4o MoE/ }).getAttribute('aria-disabled')).toBe(
      'true',
    )
    await calculator.search().fill('no such model zzz')
    await page.getByText('No catalogued model matches.').waitFor()
    await page.keyboard.press('Escape')

    // Side by side: each row as the API prices it, energy, water and CO2 with their ranges.
    for (const model of [claude, llama, 'gpt-4o']) {
      const e = await estimate(page, model)
      await calculator
        .emissions(model)
        .filter({ hasText: formatRange(e.actual.gco2eq, 'gCO2e') })
        .waitFor()
      expect(await calculator.energy(model).textContent()).toBe(formatRange(e.actual.energyWh, 'Wh'))
      expect(await calculator.water(model).textContent()).toBe(formatRangeWith(e.actual.waterL, formatWater))
      expect(e.actual.waterL.max).toBeGreaterThan(e.actual.waterL.min)
    }
    // The model's warnings in words; a model with a published architecture has none.
    expect(await calculator.warnings(claude).textContent()).toBe(
      'architecture not published: parameters estimated',
    )
    expect(await calculator.warnings('gpt-4o').getByRole('listitem').allTextContents()).toEqual([
      'architecture not published: parameters estimated',
      'multimodal model: only its text generation is counted',
    ])
    expect(await calculator.warnings(llama).count()).toBe(0)

    // Loris eco, measured: the engine's medians per token times the answer's length.
    const eco = calculator.row('loris-eco')
    // Its figures come from their own request: waited for, not read at once.
    await eco.getByRole('rowheader').filter({ hasText: 'estimated, 12 replies' }).waitFor()
    expect(await eco.getByRole('rowheader').textContent()).toContain('Loris eco (SmolLM2 360M)')
    expect(await eco.getByRole('rowheader').textContent()).toContain('estimated, 12 replies')
    expect(await calculator.energy('loris-eco').textContent()).toBe(formatEnergy(2e-7 * 500 * 1000))
    expect(await calculator.emissions('loris-eco').textContent()).toBe(
      formatRange({ min: 0.005, max: 0.005 }, 'gCO2e'),
    )
    // Its water is the electricity's, in its zone (France: 3.6737 L/kWh).
    expect(await calculator.water('loris-eco').textContent()).toBe(formatWater(2e-7 * 500 * 3.6737))

    // Removing a model removes its row; the length still drives every row.
    await page.getByRole('button', { name: 'Remove gpt-4o' }).click()
    await calculator.row('gpt-4o').waitFor({ state: 'detached' })
    await calculator.tokens().fill('2000')
    const claude2000 = await estimate(page, claude, 2000)
    await calculator
      .emissions(claude)
      .filter({ hasText: formatRange(claude2000.actual.gco2eq, 'gCO2e') })
      .waitFor()
    expect(await calculator.energy('loris-eco').textContent()).toBe(formatEnergy(2e-7 * 2000 * 1000))

    // The methodology names the data version.
    expect(await page.getByTestId('data-version').textContent()).toContain('Data version: EcoLogits 0.9.1.')
    expect(unexpectedErrors()).toEqual([])
  })

  it('shows the eco column as not measured yet when it has no figures or cannot reach them', async () => {
    for (const answer of [
      { ...MEASURED, samples: 0, method: null, energyKwhPerToken: null, gco2eqPerToken: null },
      'fail',
    ] as const) {
      const { page, unexpectedErrors, explain } = await h.browser.newPage()
      reportOnFailure({ explain }, h.server)
      await answerLocalEco(page, answer)
      const calculator = new ImpactCalculator(page, h.server.url)
      await calculator.open()
      await calculator.row('loris-eco').getByText('Not measured yet').waitFor()
      // Everything else works as usual.
      const picked = await calculator.pickWithKeyboard('gemini 2.5 flash', 0)
      const e = await estimate(page, picked)
      await calculator
        .emissions(picked)
        .filter({ hasText: formatRange(e.actual.gco2eq, 'gCO2e') })
        .waitFor()
      expect(unexpectedErrors(answer === 'fail' ? [/ERR_FAILED|ERR_CONNECTION/] : [])).toEqual([])
      await page.close()
    }
  })

  it('shows energy and water beside CO2 under Consumption, and switches the chart between them', async () => {
    const { page, unexpectedErrors, explain } = await h.browser.newPage()
    reportOnFailure({ explain }, h.server)
    const registered = await page.request.post(`${h.server.url}/api/register`, {
      data: { email: `catalogue-${Date.now()}@example.com`, password: 'a strong password' },
    })
    expect(registered.status()).toBe(201)
    const chat = new ImpactChat(page, h.server.url)
    await chat.open()
    await chat.sendAndWait('How much water does a data centre use?')
    await chat.sendAndWait('And how much energy?')

    const history = (await (
      await page.request.get(`${h.server.url}/api/metrics/co2/history?days=30`)
    ).json()) as Co2HistoryResponse
    const today = history.days.at(-1)!
    expect(today.messages).toBe(2)
    expect(today.energyWh).toBeGreaterThan(0)
    expect(today.waterL).toBeGreaterThan(0)

    const consumption = new ConsumptionTab(page, h.server.url)
    await consumption.open()
    await consumption
      .stat('energy-total')
      .filter({ hasText: formatEnergy(history.totals.energyWh.mid) })
      .waitFor()
    expect(await consumption.stat('water-total').textContent()).toBe(formatWater(history.totals.waterL.mid))
    expect(await consumption.stat('energy-total-range').textContent()).toBe(
      `Estimated range ${formatRangeWith(history.totals.energyWh, formatEnergy)}`,
    )
    expect(await consumption.stat('water-total-range').textContent()).toBe(
      `Estimated range ${formatRangeWith(history.totals.waterL, formatWater)}`,
    )

    // CO2 first.
    expect(await consumption.metricChart('Daily CO2').getAttribute('aria-label')).toContain(
      `${formatGrams(today.saved)} saved and ${formatGrams(today.actual)} emitted across 2 replies`,
    )
    await consumption.showMetric('Energy')
    expect(await consumption.metricChart('Daily energy').getAttribute('aria-label')).toContain(
      `${formatEnergy(today.energyWh)} used across 2 replies`,
    )
    expect(
      await consumption.metricChart('Daily energy').locator('.recharts-bar-rectangle').count(),
    ).toBeGreaterThan(0)
    expect(
      await consumption.useTable('energy').locator('tbody tr').last().locator('td').allTextContents(),
    ).toEqual([formatEnergy(today.energyWh), '2'])
    await consumption.showMetric('Water')
    expect(await consumption.metricChart('Daily water').getAttribute('aria-label')).toContain(
      `${formatWater(today.waterL)} used across 2 replies`,
    )
    expect(
      await consumption.useTable('water').locator('tbody tr').last().locator('td').allTextContents(),
    ).toEqual([formatWater(today.waterL), '2'])
    await consumption.showMetric('CO2')
    await consumption.chartTable().waitFor({ state: 'attached' })
    expect(unexpectedErrors()).toEqual([])
  })
})
