import { useEffect } from 'react'
import { useUser } from '#client/app/api/get-user.ts'
import { setSignInDialogOpen, useSignInDialogOpen } from '#client/app/hooks/use-sign-in-dialog.ts'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx'
import { SignInPanel } from './sign-in-panel.tsx'
import { useGoogleAuthError } from './use-google-auth-error.ts'

/**
 * 'Welcome to Loris' (spec section 2): closes by itself once a user exists. `returnTo`: the page
 * Google sign-in comes back to, when not the chat screen.
 */
export function SignInDialog({ returnTo }: { returnTo?: string }) {
  const open = useSignInDialogOpen()
  const { user } = useUser()
  useGoogleAuthError()
  useEffect(() => {
    if (user && open) setSignInDialogOpen(false)
  }, [user, open])
  return (
    <Dialog open={open && !user} onOpenChange={setSignInDialogOpen}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Welcome to Loris</DialogTitle>
          <DialogDescription>
            Sign in to chat, keep your threads and track the CO2 you save.
          </DialogDescription>
        </DialogHeader>
        <SignInPanel returnTo={returnTo} />
      </DialogContent>
    </Dialog>
  )
}
