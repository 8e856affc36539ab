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
}
