// The chat's keyboard shortcuts (lib/shortcuts.ts) on the whole page, for a signed-in person.
// They act through what is on screen (the composer, the search box, Stop, the last ‹ › pair),
// so each works exactly when its control would.
import { useEffect, useState } from 'react'
import { isComposing } from '#client/lib/keyboard.ts'
import { isMac } from '../components/shortcuts-dialog.tsx'
import { matchShortcut, type ShortcutAction } from '../lib/shortcuts.ts'
import { startNewThread } from './use-thread-selection.ts'

/** Asks the drawer (phones) to open: the search box lives in it there. */
export const OPEN_THREADS_EVENT = 'loris:open-threads'

const COMPOSER = 'textarea[aria-label="Message"]'

const inTextField = (el: Element | null) =>
  el instanceof HTMLElement &&
  (el.isContentEditable ||
    el instanceof HTMLTextAreaElement ||
    (el instanceof HTMLInputElement && el.type !== 'checkbox'))

function clickLast(selector: string): boolean {
  const all = document.querySelectorAll<HTMLButtonElement>(selector)
  const button = all[all.length - 1]
  if (!button || button.disabled) return false
  button.click()
  return true
}

function focusWhenShown(selector: string, tries = 10) {
  const el = document.querySelector<HTMLElement>(selector)
  if (el) el.focus()
  else if (tries > 0) requestAnimationFrame(() => focusWhenShown(selector, tries - 1))
}

function run(action: ShortcutAction, showSheet: () => void): boolean {
  switch (action) {
    case 'new-chat':
      startNewThread()
      focusWhenShown(COMPOSER)
      return true
    case 'focus-composer':
      focusWhenShown(COMPOSER)
      return true
    case 'search-threads':
      if (!document.querySelector('input[aria-label="Search threads"]'))
        window.dispatchEvent(new Event(OPEN_THREADS_EVENT))
      focusWhenShown('input[aria-label="Search threads"]')
      return true
    case 'stop':
      return clickLast('button[aria-label="Stop generating"]')
    case 'previous-version':
      return clickLast('button[data-shortcut="previous-version"]')
    case 'next-version':
      return clickLast('button[data-shortcut="next-version"]')
    case 'show-shortcuts':
      showSheet()
      return true
  }
}

export function useChatShortcuts(enabled: boolean) {
  const [sheetOpen, setSheetOpen] = useState(false)
  useEffect(() => {
    if (!enabled) return
    const mac = isMac()
    const onKeyDown = (e: KeyboardEvent) => {
      // A dialog or menu handles its own keys (Esc closes it); so does an IME composing text.
      if (e.defaultPrevented || isComposing(e)) return
      if (document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]')) return
      const active = document.activeElement
      const action = matchShortcut(
        {
          key: e.key,
          ctrlKey: e.ctrlKey,
          metaKey: e.metaKey,
          shiftKey: e.shiftKey,
          altKey: e.altKey,
          inTextField: inTextField(active),
        },
        mac,
      )
      // Esc in another text field (clearing the thread search, leaving the edit box) is that
      // field's own: it stops a reply only from the message box or outside text fields.
      if (action === 'stop' && inTextField(active) && !active?.matches(COMPOSER)) return
      if (action && run(action, () => setSheetOpen(true))) e.preventDefault()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [enabled])
  return { sheetOpen, setSheetOpen }
}
