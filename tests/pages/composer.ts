import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'

export const fixturePath = (name: string) => path.resolve(import.meta.dirname, '../fixtures', name)

/** The composer's attachment and voice controls, the drop zone, and what an exchange shows of a file. */
export class ComposerControls {
  constructor(readonly page: Page) {}

  input() {
    return this.page.getByRole('textbox', { name: 'Message' })
  }

  attachButton() {
    return this.page.getByRole('button', { name: 'Attach a file' })
  }

  /** Picks a fixture through 'Upload image' or 'Upload file', as a person would. */
  async upload(choice: 'Upload image' | 'Upload file', fixture: string) {
    await this.attachButton().click()
    const chooser = this.page.waitForEvent('filechooser')
    await this.page.getByRole('menuitem', { name: choice }).click()
    await (await chooser).setFiles(fixturePath(fixture))
  }

  /** The `accept` of the picker behind a choice. */
  accept(choice: 'Upload image' | 'Upload file') {
    return this.page.getByLabel(choice, { exact: true }).getAttribute('accept')
  }

  chip() {
    return this.page.getByTestId('attachment-chip')
  }

  dropOverlay() {
    return this.page.getByTestId('drop-overlay')
  }

  /** Drags a file over the chat (the overlay shows) without dropping it. */
  async dragOver(fileName: string, type: string) {
    await this.dispatchDrag(['dragenter', 'dragover'], fileName, type)
  }

  /** A synthetic drag and drop of a fixture's bytes onto the chat. */
  async drop(fixture: string, type: string, fileName = fixture) {
    const base64 = readFileSync(fixturePath(fixture)).toString('base64')
    await this.dispatchDrag(['dragenter', 'dragover', 'drop'], fileName, type, base64)
  }

  /**
   * Pastes a fixture's bytes into the message box, as a screenshot pasted from the clipboard, with
   * `text` beside them as Excel or Word put it. True when the page left the paste to the browser
   * (which would insert the text; a synthetic paste inserts nothing).
   */
  async paste(fixture: string, type: string, fileName = fixture, text?: string): Promise<boolean> {
    const base64 = readFileSync(fixturePath(fixture)).toString('base64')
    await this.page.getByRole('textbox', { name: 'Message' }).focus()
    return this.page.evaluate(
      ({ name, type, base64, text }) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
        const transfer = new DataTransfer()
        if (text !== undefined) transfer.setData('text/plain', text)
        transfer.items.add(new File([bytes], name, { type }))
        return (
          document.activeElement?.dispatchEvent(
            new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: transfer }),
          ) ?? false
        )
      },
      { name: fileName, type, base64, text },
    )
  }

  /** A synthetic drag of a file dropped on `selector`: true when the browser would open the file. */
  async dropOn(selector: string, fixture: string, type: string): Promise<boolean> {
    const base64 = readFileSync(fixturePath(fixture)).toString('base64')
    return this.page.evaluate(
      ({ selector, name, type, base64 }) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
        const transfer = new DataTransfer()
        transfer.items.add(new File([bytes], name, { type }))
        const target = document.querySelector(selector)
        if (!target) throw new Error(`nothing matches ${selector}`)
        const drag = (kind: string) =>
          target.dispatchEvent(
            new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: transfer }),
          )
        // Each must be cancelled: an allowed dragover lets the drop through, a drop opens the file.
        const overAllowed = drag('dragover')
        const dropOpened = drag('drop')
        return overAllowed || dropOpened
      },
      { selector, name: fixture, type, base64 },
    )
  }

  private async dispatchDrag(events: string[], name: string, type: string, base64 = '') {
    await this.page.evaluate(
      ({ events, name, type, base64 }) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
        const transfer = new DataTransfer()
        transfer.items.add(new File([bytes], name, { type }))
        const target = document.querySelector('section[aria-label="Chat"]') ?? document.body
        for (const kind of events)
          target.dispatchEvent(
            new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: transfer }),
          )
      },
      { events, name, type, base64 },
    )
  }

  recordButton() {
    return this.page.getByRole('button', { name: 'Record voice message' })
  }

  stopRecordingButton() {
    return this.page.getByRole('button', { name: 'Stop recording' })
  }

  cancelRecordingButton() {
    return this.page.getByRole('button', { name: 'Cancel recording' })
  }

  discardRecordingButton() {
    return this.page.getByRole('button', { name: 'Discard recording' })
  }

  async placeholder() {
    return this.input().getAttribute('placeholder')
  }

  /** Waits until the input's placeholder matches (the recording timer, for one). */
  async waitForPlaceholder(pattern: RegExp) {
    await this.page.waitForFunction((source) => {
      const el = document.querySelector('textarea[aria-label="Message"]')
      return el instanceof HTMLTextAreaElement && new RegExp(source).test(el.placeholder)
    }, pattern.source)
  }
}
