import { useEffect } from 'react'
import { setSignInDialogOpen } from '#client/app/hooks/use-sign-in-dialog.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { googleAuthErrorMessage } from '#contract/google-auth-errors.ts'

/**
 * A Google sign-in that did not finish comes back as /chat?auth_error=<code> (decision 005):
 * say why in a toast, reopen the sign-in dialog so the person can try another way, and drop the
 * parameter so a reload does not repeat it.
 */
export function useGoogleAuthError() {
  useEffect(() => {
    const url = new URL(window.location.href)
    const code = url.searchParams.get('auth_error')
    if (code === null) return
    url.searchParams.delete('auth_error')
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`)
    toast({
      title: 'Google sign-in failed',
      description: googleAuthErrorMessage(code),
      variant: 'destructive',
    })
    setSignInDialogOpen(true)
  }, [])
}
