// The composer's text, kept outside the chat column: the column is mounted again when the layout
// changes (the desktop's panels from 1024 px, the phone's column below) and when the person comes
// back from another page, and what they were writing must survive both. In memory only, like
// the chosen file (use-attachment-draft.ts); forgotten when the session ends here.
import { type SetStateAction, useSyncExternalStore } from 'react'
import { forgetOnSessionEnd } from '#client/app/api/get-user.ts'

let text = ''
const listeners = new Set<() => void>()

export function setComposerText(next: SetStateAction<string>) {
  const value = typeof next === 'function' ? next(text) : next
  if (value === text) return
  text = value
  for (const l of listeners) l()
}

/** Text the forgetting leaves in place (a send refused as signed out, keepTextThrough). */
let kept: string | null = null

forgetOnSessionEnd(() => setComposerText(kept ?? ''))

/**
 * A send refused as signed out: the page is about to turn to a visitor's, which forgets the
 * composer's text. What is in it now was just typed by whoever is here, and stays, until `until`
 * (the reading of who is signed in) settles: a later session end forgets as usual.
 */
export function keepTextThrough(until: Promise<unknown>) {
  kept = text
  void until.finally(() => {
    kept = null
  })
}

const subscribe = (l: () => void) => {
  listeners.add(l)
  return () => {
    listeners.delete(l)
  }
}

/** The text and its setter, as `useState` gives them (functional updates included). */
export function useComposerText(): [string, (next: SetStateAction<string>) => void] {
  const value = useSyncExternalStore(subscribe, () => text)
  return [value, setComposerText]
}
