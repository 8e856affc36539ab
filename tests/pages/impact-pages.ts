import type { Page } from 'playwright-core'

/** The impact parts of the chat screen: the header badges, and sending through the composer. */
export class ImpactChat {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open() {
    await this.page.goto(`${this.baseUrl}/chat`)
    await this.co2Badge().waitFor()
  }

  co2Badge() {
    return this.page.getByTestId('co2-badge')
  }

  co2Value() {
    return this.page.getByTestId('co2-badge-value')
  }

  treesBadge() {
    return this.page.getByTestId('trees-badge')
  }

  treesValue() {
    return this.page.getByTestId('trees-badge-value')
  }

  async chooseMode(label: 'Gemini' | 'Loris eco' | 'ChatGPT') {
    await this.page.getByRole('button', { name: /^Chat mode:/ }).click()
    await this.page.getByRole('menuitemradio', { name: label }).click()
    await this.page.getByRole('button', { name: `Chat mode: ${label}` }).waitFor()
  }

  /** Sends from the composer and waits until the whole reply has arrived. */
  async sendAndWait(text: string) {
    const composer = this.page.getByRole('textbox', { name: 'Message' })
    await composer.fill(text)
    await composer.press('Enter')
    await this.page
      .getByTestId('exchange')
      .filter({ has: this.page.getByTestId('user-message').filter({ hasText: text }) })
      .getByTestId('assistant-reply')
      .and(this.page.locator('[aria-busy="false"]'))
      .filter({ hasText: `Echo: ${text}` })
      .waitFor()
  }
}

/** Settings, Consumption tab. */
export class ConsumptionTab {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open() {
    await this.page.goto(`${this.baseUrl}/account`)
    await this.page.getByRole('tab', { name: 'Consumption' }).click()
    await this.page.getByTestId('co2-history').waitFor()
  }

  stat(testId: string) {
    return this.page.getByTestId(testId)
  }

  chart() {
    return this.page.getByTestId('co2-history').getByRole('img', { name: /^Daily CO2/ })
  }

  /** The visually hidden data table behind the chart. */
  chartTable() {
    return this.page.getByRole('table', { name: 'Daily CO2 saved and emitted', includeHidden: true })
  }

  /** Switches the chart between CO2, energy and water. */
  async showMetric(label: 'CO2' | 'Energy' | 'Water') {
    const button = this.page.getByTestId('co2-history').getByRole('button', { name: label, exact: true })
    await button.click()
    await this.page
      .locator(`[data-testid="co2-history"] button[aria-pressed="true"]`, { hasText: label })
      .waitFor()
  }

  /** The chart of one metric, by the start of its screen-reader summary. */
  metricChart(title: 'Daily CO2' | 'Daily energy' | 'Daily water') {
    return this.page.getByTestId('co2-history').getByRole('img', { name: new RegExp(`^${title}`) })
  }

  /** The hidden table behind the energy or water chart. */
  useTable(metric: 'energy' | 'water') {
    return this.page.getByRole('table', { name: `Daily ${metric} used`, includeHidden: true })
  }
}

/** The calculator on /howitworks. */
export class ImpactCalculator {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open() {
    await this.page.goto(`${this.baseUrl}/howitworks`)
    await this.emissions('gpt-4o').filter({ hasText: 'gCO2e' }).waitFor()
  }

  tokens() {
    return this.page.getByLabel('Answer length (output tokens)')
  }

  zone() {
    return this.page.getByLabel('Electricity')
  }

  table() {
    return this.page.getByTestId('estimates-table')
  }

  row(model: string) {
    return this.table().locator(`tr[data-model="${model}"]`)
  }

  emissions(model: string) {
    return this.row(model).getByTestId('emissions')
  }

  energy(model: string) {
    return this.row(model).getByTestId('energy')
  }

  water(model: string) {
    return this.row(model).getByTestId('water')
  }

  warnings(model: string) {
    return this.row(model).getByTestId('warnings')
  }

  /** The button that opens the model picker. */
  addModel() {
    return this.page.getByRole('button', { name: 'Add a model' })
  }

  search() {
    return this.page.getByRole('combobox', { name: 'Search models' })
  }

  /** The option the arrow keys have made active (aria-activedescendant of the search box). */
  async activeOption(): Promise<string | null> {
    const id = await this.search().getAttribute('aria-activedescendant')
    if (!id) return null
    return this.page.locator(`[id="${id}"]`).getAttribute('data-value')
  }

  /** Keyboard only: focus the trigger, Enter opens the picker, type, arrow down `down` times, Enter. */
  async pickWithKeyboard(query: string, down = 0): Promise<string> {
    await this.addModel().focus()
    await this.page.keyboard.press('Enter')
    await this.search().waitFor()
    await this.page.keyboard.type(query)
    for (let i = 0; i < down; i++) await this.page.keyboard.press('ArrowDown')
    const picked = await this.activeOption()
    if (!picked) throw new Error(`no option for "${query}"`)
    await this.page.keyboard.press('Enter')
    await this.search().waitFor({ state: 'detached' })
    return picked
  }
}
