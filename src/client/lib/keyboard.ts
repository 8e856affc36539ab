// Key presses that belong to an input method (Japanese, Chinese, Korean...): the Enter that
// confirms a candidate, the Escape that cancels one. Safari sends that Enter after the
// composition ended (isComposing false) but with keyCode 229, so both are checked.

/** Whether the key press is part of an IME composition and must not send, save or close. */
export function isComposing(event: KeyboardEvent | { nativeEvent: KeyboardEvent }): boolean {
  const e = 'nativeEvent' in event ? event.nativeEvent : event
  return e.isComposing || e.keyCode === 229
}
