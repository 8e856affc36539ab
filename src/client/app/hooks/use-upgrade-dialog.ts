import { createOpenStore, useOpenStore } from '#client/lib/open-store.ts'

// The upgrade dialog is opened from the chat's send flow (5th message, spec section 4) and
// from upgrade buttons; one instance rendered by the chat page listens here.
const store = createOpenStore()

export const setUpgradeDialogOpen = store.set
export function useUpgradeDialogOpen(): boolean {
  return useOpenStore(store)
}
