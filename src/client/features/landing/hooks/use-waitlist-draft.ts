import { useCallback, useState } from 'react'

// Spec section 3: the draft waitlist e-mail lives in local storage under this key.
export const WAITLIST_DRAFT_KEY = 'waitlist_email'

// Storage can be unavailable (private modes, blocked cookies); the form still works without it.
function read(): string {
  try {
    return window.localStorage.getItem(WAITLIST_DRAFT_KEY) ?? ''
  } catch {
    return ''
  }
}

function write(value: string | null) {
  try {
    if (value === null) window.localStorage.removeItem(WAITLIST_DRAFT_KEY)
    else window.localStorage.setItem(WAITLIST_DRAFT_KEY, value)
  } catch {
    // Nothing to do: the draft is a convenience.
  }
}

/** Spec section 4: the draft is saved on every change and cleared after a successful join. */
export function useWaitlistDraft() {
  const [email, setEmail] = useState(read)
  const change = useCallback((value: string) => {
    setEmail(value)
    write(value)
  }, [])
  const clear = useCallback(() => {
    setEmail('')
    write(null)
  }, [])
  return { email, change, clear }
}
