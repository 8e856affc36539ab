// The share page's Continue, once the visitor who clicked it has signed in (by password here, or
// back from Google): carried out by itself, once, as their click would have been.
import { useEffect, useRef } from 'react'
import { useSignInDialogOpen } from '#client/app/hooks/use-sign-in-dialog.ts'
import { dropPendingContinue, takePendingContinue } from '../lib/pending-continue.ts'

export function useContinueAfterSignIn(token: string, signedIn: boolean, continueNow: () => void) {
  const continueRef = useRef(continueNow)
  continueRef.current = continueNow
  useEffect(() => {
    if (signedIn && takePendingContinue(token)) continueRef.current()
  }, [signedIn, token])

  // Closing the dialog without signing in gives the click up: a later sign-in elsewhere in this
  // tab must not copy the conversation unasked.
  const open = useSignInDialogOpen()
  const wasOpen = useRef(open)
  useEffect(() => {
    if (wasOpen.current && !open && !signedIn) dropPendingContinue()
    wasOpen.current = open
  }, [open, signedIn])
}
