// Eco impact through the real server and the AI stand-in: two messages plant a tree (the badge
// pops), the CO2 badge follows the stored replies, the Consumption tab shows the numbers and the
// daily chart; the how-it-works calculator prices an answer on each model.
import { describe, expect, it } from 'vitest'
import { formatGrams, formatRange } from '#client/lib/impact-format.ts'
import type { Co2HistoryResponse, ImpactEstimateResponse } from '#contract/impact.ts'
import type { User } from '#contract/user.ts'
import { ConsumptionTab, ImpactCalculator, ImpactChat } from '../pages/impact-pages.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'
import { holdNextRequest } from './support/held-request.ts'

const h = chatHarnessForFile({ emailPrefix: 'impact', resetStandIn: false })

describe('impact', () => {
  it('plants a tree every second message, updates the badges and shows it all under Consumption', async () => {
    const { page, unexpectedErrors } = await h.browser.newPage()
    const email = `impact-${Date.now()}@example.com`
    // Signing up is another test's subject: the API sets the session cookie in this browser.
    const registered = await page.request.post(`${h.server.url}/api/register`, {
      data: { email, password: 'a strong password' },
    })
    expect(registered.status()).toBe(201)
    const chat = new ImpactChat(page, h.server.url)
    await chat.open()
    expect(await chat.co2Value().textContent()).toBe('0 g')
    expect(await chat.treesValue().textContent()).toBe('0')

    // Eco mode saves CO2 against the standard model (Gemini 2.5 Pro, the default, saves none).
    await chat.chooseMode('Loris eco')
    const first = 'How do forests store carbon?'
    await chat.sendAndWait(first)
    const afterOne = (await (await page.request.get(`${h.server.url}/api/metrics/co2`)).json()) as number
    expect(afterOne).toBeGreaterThan(0)
    await chat
      .co2Value()
      .filter({ hasText: formatGrams(afterOne) })
      .waitFor()
    expect(await chat.treesValue().textContent()).toBe('0')

    const second = 'And what about peat bogs?'
    await chat.sendAndWait(second)
    // The second message plants the first tree, and the badge scales up for a moment.
    await page.locator('[data-testid="trees-badge"][data-state="popping"]').waitFor({ state: 'attached' })
    await chat.treesValue().filter({ hasText: /^1$/ }).waitFor()
    await page.locator('[data-testid="trees-badge"][data-state="idle"]').waitFor({ state: 'attached' })
    const afterTwo = (await (await page.request.get(`${h.server.url}/api/metrics/co2`)).json()) as number
    expect(afterTwo).toBeGreaterThan(afterOne)
    await chat
      .co2Value()
      .filter({ hasText: formatGrams(afterTwo) })
      .waitFor()

    // The tooltip explains the number (700 ms delay, spec section 4).
    await chat.co2Badge().hover()
    const tooltip = page.getByRole('tooltip')
    await tooltip.waitFor()
    expect(await tooltip.textContent()).toContain('CO2 savings are compared with standard AI models.')
    expect(await tooltip.textContent()).toContain(
      'Actual emissions and savings are tracked for each message.',
    )

    const user = (await (await page.request.get(`${h.server.url}/api/user`)).json()) as User
    expect(user.treesPlanted).toBe(1)
    const consumption = new ConsumptionTab(page, h.server.url)
    await consumption.open()
    expect(await consumption.stat('co2-saved-total').textContent()).toBe(formatGrams(afterTwo))
    expect(await consumption.stat('trees-total').textContent()).toBe('1')
    // The usage tier's model (spec section 4), and the model that really answers in eco mode, by
    // name: this harness serves the eco mode from an OpenAI-compatible model called 'loris-eco'.
    await consumption.stat('current-model').filter({ hasText: 'Gemini 2.5 Pro' }).waitFor()
    await consumption.stat('answering-model').filter({ hasText: 'Loris eco (Loris Eco)' }).waitFor()
    expect(await consumption.stat('chat-engine').textContent()).toBe('Loris eco')
    expect(await consumption.stat('usage-input').textContent()).toBe(
      user.aiInputChars.toLocaleString('en-US'),
    )
    expect(await consumption.stat('usage-output').textContent()).toBe(
      user.aiOutputChars.toLocaleString('en-US'),
    )
    expect(await consumption.stat('usage-total').textContent()).toBe(
      `${(user.aiInputChars + user.aiOutputChars).toLocaleString('en-US')} characters`,
    )
    const reset = new Date(new Date(user.lastAiUsageReset).getTime() + 30 * 86_400_000)
    expect(await consumption.stat('next-reset').textContent()).toBe(
      reset.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }),
    )

    // The chart: one image with a summary for screen readers, the numbers in a hidden table.
    const history = (await (
      await page.request.get(`${h.server.url}/api/metrics/co2/history?days=30`)
    ).json()) as Co2HistoryResponse
    const today = history.days.at(-1)!
    expect(today.messages).toBe(2)
    const summary = await consumption.chart().getAttribute('aria-label')
    expect(summary).toContain(
      `${formatGrams(today.saved)} saved and ${formatGrams(today.actual)} emitted across 2 replies`,
    )
    expect(await consumption.chart().locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0)
    const rows = consumption.chartTable().locator('tbody tr')
    expect(await rows.count()).toBe(30)
    expect(await rows.last().locator('td').allTextContents()).toEqual([
      formatGrams(today.saved),
      formatGrams(today.actual),
      '2',
    ])
    expect(unexpectedErrors()).toEqual([])
  })

  it('prices an answer on each model in the how-it-works calculator', async () => {
    const { page, unexpectedErrors } = await h.browser.newPage()
    const calculator = new ImpactCalculator(page, h.server.url)
    await calculator.open()
    const estimate = async (model: string, outputTokens: number, zone?: string) => {
      const q = new URLSearchParams({ model, outputTokens: String(outputTokens), ...(zone ? { zone } : {}) })
      return (await (
        await page.request.get(`${h.server.url}/api/impact/estimate?${q}`)
      ).json()) as ImpactEstimateResponse
    }

    // 500 tokens by default, each model in its provider's zone.
    const lite500 = await estimate('gemini-2.5-flash-lite', 500)
    expect(await calculator.emissions('gemini-2.5-flash-lite').textContent()).toBe(
      formatRange(lite500.actual.gco2eq, 'gCO2e'),
    )
    expect(await calculator.energy('gemini-2.5-flash-lite').textContent()).toBe(
      formatRange(lite500.actual.energyWh, 'Wh'),
    )
    expect(await calculator.row('gpt-4o').textContent()).toContain('standard model')

    await calculator.tokens().fill('2000')
    const lite2000 = await estimate('gemini-2.5-flash-lite', 2000)
    await calculator
      .emissions('gemini-2.5-flash-lite')
      .filter({ hasText: formatRange(lite2000.actual.gco2eq, 'gCO2e') })
      .waitFor()
    await calculator.table().getByText('one 2,000-token answer').waitFor()
    // The reference every saving is counted against: gpt-4o on the world mix, whatever the zone.
    await page
      .getByTestId('standard-line')
      .filter({ hasText: formatRange(lite2000.standard.gco2eq, 'gCO2e') })
      .waitFor()

    await calculator.zone().selectOption('FRA')
    const pro2000France = await estimate('gemini-2.5-pro', 2000, 'FRA')
    await calculator
      .emissions('gemini-2.5-pro')
      .filter({ hasText: formatRange(pro2000France.actual.gco2eq, 'gCO2e') })
      .waitFor()

    // Not a number of tokens: the hint says what is valid and the table keeps its numbers.
    await calculator.tokens().fill('-3')
    await page.getByText('Enter a whole number from 0 to 1,000,000.').waitFor()
    expect(await calculator.tokens().getAttribute('aria-invalid')).toBe('true')
    expect(await calculator.emissions('gemini-2.5-pro').textContent()).toBe(
      formatRange(pro2000France.actual.gco2eq, 'gCO2e'),
    )

    // The method and its sources are cited.
    expect(
      await page.getByRole('link', { name: 'EcoLogits 0.9.1 by GenAI Impact' }).getAttribute('href'),
    ).toBe('https://ecologits.ai')
    expect(await page.getByText('0.24 Wh and 0.03 gCO2e').count()).toBe(1)
    // The calculator asks the eco engine's GET /api/impact/local-eco, which lands with the eco engine
    // issue; until this build has it, Chromium logs its 404 (the page copes: "not measured yet").
    const localEco = await page.request.get(`${h.server.url}/api/impact/local-eco`)
    expect(unexpectedErrors(localEco.status() === 404 ? [/status of 404/] : [])).toEqual([])
  })

  it('keeps the figures in the calculator while new ones load, instead of emptying every cell', async () => {
    const { page, unexpectedErrors } = await h.browser.newPage()
    const calculator = new ImpactCalculator(page, h.server.url)
    await calculator.open()
    // From the first figures on, any cell that ever reads '…' is noted.
    await page.evaluate(() => {
      const table = document.querySelector('[data-testid="estimates-table"]')
      if (!table) throw new Error('no table')
      const seen: string[] = []
      Object.assign(window, { emptiedCells: seen })
      const look = () => {
        for (const cell of table.querySelectorAll<HTMLElement>('td[data-testid]'))
          if (cell.textContent === '…')
            seen.push(`${cell.closest('tr')?.dataset.model} ${cell.dataset.testid}`)
      }
      look()
      new MutationObserver(look).observe(table, { subtree: true, childList: true, characterData: true })
    })
    const emptied = () => page.evaluate(() => (window as unknown as { emptiedCells: string[] }).emptiedCells)
    const before = await calculator.emissions('gpt-4o').textContent()

    // gpt-4o's next answer is held, as on a slow connection: its row shows the last figures, marked busy.
    const held = await holdNextRequest(
      page,
      (url) =>
        url.pathname === '/api/impact/estimate' &&
        url.searchParams.get('model') === 'gpt-4o' &&
        url.searchParams.get('outputTokens') === '2000',
    )
    await calculator.tokens().fill('2000')
    await held.request
    expect(await emptied()).toEqual([])
    expect(await calculator.emissions('gpt-4o').textContent()).toBe(before)
    await calculator.row('gpt-4o').and(page.locator('[aria-busy="true"]')).waitFor()
    await held.release()
    const gpt2000 = (await (
      await page.request.get(`${h.server.url}/api/impact/estimate?model=gpt-4o&outputTokens=2000`)
    ).json()) as ImpactEstimateResponse
    await calculator
      .emissions('gpt-4o')
      .filter({ hasText: formatRange(gpt2000.actual.gco2eq, 'gCO2e') })
      .waitFor()
    await calculator.row('gpt-4o').and(page.locator('[aria-busy="false"]')).waitFor()

    // A change of zone the same way.
    await calculator.zone().selectOption('FRA')
    const pro2000France = (await (
      await page.request.get(
        `${h.server.url}/api/impact/estimate?model=gemini-2.5-pro&outputTokens=2000&zone=FRA`,
      )
    ).json()) as ImpactEstimateResponse
    await calculator
      .emissions('gemini-2.5-pro')
      .filter({ hasText: formatRange(pro2000France.actual.gco2eq, 'gCO2e') })
      .waitFor()
    expect(await emptied()).toEqual([])
    expect(held.taken()).toBe(true)
    const localEco = await page.request.get(`${h.server.url}/api/impact/local-eco`)
    expect(unexpectedErrors(localEco.status() === 404 ? [/status of 404/] : [])).toEqual([])
  })
})
