import type { Page } from 'playwright-core'

/** The thread list (desktop panel, or the 'Show Threads' drawer on small screens). */
export class ThreadList {
  constructor(readonly page: Page) {}

  root() {
    return this.page.getByRole('navigation', { name: 'Threads' })
  }

  search(text: string) {
    return this.root().getByRole('searchbox', { name: 'Search threads' }).fill(text)
  }

  /** A thread's select button, by exact title. */
  thread(title: string) {
    return this.root().getByRole('button', { name: title, exact: true })
  }

  titles() {
    return this.root()
      .getByTestId('thread-row')
      .getByRole('button')
      .filter({ hasNotText: /^$/ })
      .allTextContents()
  }

  /** Section headings in order (Favorites, Today, ...). */
  sections() {
    return this.root().getByRole('heading').allTextContents()
  }

  selected() {
    return this.root().locator('button[aria-current="true"]')
  }

  async open(title: string) {
    await this.thread(title).click()
    await this.page.locator('button[aria-current="true"]', { hasText: title }).waitFor()
  }

  async newThread() {
    await this.root().getByRole('button', { name: 'New thread' }).click()
  }

  /** Opens the visible '…' menu of a thread and picks an item. */
  async action(title: string, item: 'Add to favorites' | 'Remove from favorites' | 'Rename' | 'Delete') {
    await this.root()
      .getByRole('button', { name: `More actions for ${title}` })
      .click()
    await this.page.getByRole('menuitem', { name: item }).click()
  }

  /** Right-click menu of a thread. */
  async contextAction(title: string, item: string) {
    await this.thread(title).click({ button: 'right' })
    await this.page.getByRole('menuitem', { name: item }).click()
  }

  async rename(title: string, next: string) {
    await this.action(title, 'Rename')
    const dialog = this.page.getByRole('dialog', { name: 'Rename Thread' })
    await dialog.getByLabel('Title').fill(next)
    await dialog.getByRole('button', { name: 'Rename' }).click()
    await dialog.waitFor({ state: 'hidden' })
  }

  async remove(title: string) {
    await this.action(title, 'Delete')
    const dialog = this.page.getByRole('alertdialog')
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await dialog.waitFor({ state: 'hidden' })
  }
}
