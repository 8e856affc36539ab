// The chat's keyboard shortcuts, in one list the help sheet shows and the key handler
// matches. Single keys ([, ], ?) act only outside text fields, where typing them means text.

export type ShortcutAction =
  | 'new-chat'
  | 'focus-composer'
  | 'search-threads'
  | 'stop'
  | 'previous-version'
  | 'next-version'
  | 'show-shortcuts'

export interface Shortcut {
  action: ShortcutAction
  label: string
  /** Keys as shown, with 'Mod' for Ctrl (⌘ on a Mac). */
  keys: string[][]
}

export const SHORTCUTS: Shortcut[] = [
  { action: 'new-chat', label: 'New chat', keys: [['Mod', 'Shift', 'O']] },
  { action: 'focus-composer', label: 'Focus the message box', keys: [['Shift', 'Esc']] },
  { action: 'search-threads', label: 'Search threads', keys: [['Mod', 'K']] },
  { action: 'stop', label: 'Stop the reply', keys: [['Esc']] },
  { action: 'previous-version', label: 'Previous version of the last turn', keys: [['[']] },
  { action: 'next-version', label: 'Next version of the last turn', keys: [[']']] },
  { action: 'show-shortcuts', label: 'Show keyboard shortcuts', keys: [['?'], ['Mod', '/']] },
]

export interface KeyInput {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  altKey: boolean
  /** Focus is in a text field (typing there must not trigger single-key shortcuts). */
  inTextField: boolean
}

/** The shortcut a key press means, or null. `mac` makes ⌘ the modifier instead of Ctrl. */
export function matchShortcut(e: KeyInput, mac: boolean): ShortcutAction | null {
  const mod = mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key
  if (e.altKey) return null
  if (mod && e.shiftKey && key === 'o') return 'new-chat'
  if (mod && !e.shiftKey && key === 'k') return 'search-threads'
  if (mod && key === '/') return 'show-shortcuts'
  if (!mod && !e.ctrlKey && !e.metaKey && key === 'Escape') return e.shiftKey ? 'focus-composer' : 'stop'
  if (e.inTextField || e.ctrlKey || e.metaKey) return null
  if (key === '?') return 'show-shortcuts'
  if (key === '[') return 'previous-version'
  if (key === ']') return 'next-version'
  return null
}

/** Keys as this device names them. */
export function keyLabel(key: string, mac: boolean): string {
  if (key === 'Mod') return mac ? '⌘' : 'Ctrl'
  if (key === 'Shift') return mac ? '⇧' : 'Shift'
  return key
}
