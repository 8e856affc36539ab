import { createOpenStore, useOpenStore } from '#client/lib/open-store.ts'

// Any screen can ask for the sign-in dialog (header button, a visitor's send); one instance
// rendered by the chat page listens here.
const store = createOpenStore()

export const setSignInDialogOpen = store.set
export function useSignInDialogOpen(): boolean {
  return useOpenStore(store)
}
