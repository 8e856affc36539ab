// /reset-password?token=...: the page a reset link opens. Setting the password ends every
// session (this browser's too), so it then offers to sign in with the new one (decision 010).
import { type FormEvent, useId, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import { setSignInDialogOpen } from '#client/app/hooks/use-sign-in-dialog.ts'
import { TextField } from '#client/components/text-field.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent } from '#client/components/ui/card.tsx'
import { errorText } from '#client/lib/api.ts'
import { useResetPassword } from './api/email-links.ts'

export default function ResetPasswordPage() {
  const id = useId()
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  const [, navigate] = useLocation()
  const [password, setPassword] = useState('')
  const reset = useResetPassword()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    reset.mutate({ token, password })
  }
  const signIn = () => {
    setSignInDialogOpen(true)
    navigate('/chat')
  }

  return (
    <main className="flex min-h-dvh w-full items-center justify-center px-4">
      <Card className="w-full max-w-md">
        <CardContent className="grid gap-4 pt-6">
          <h1 className="text-2xl font-bold">Choose a new password</h1>
          {reset.isSuccess ? (
            <>
              <p role="status">
                Your password has been changed, and every device that was signed in has been signed out.
              </p>
              <Button type="button" onClick={signIn}>
                Sign in
              </Button>
            </>
          ) : (
            <form onSubmit={submit} className="grid gap-4" noValidate>
              <TextField
                id={`${id}-password`}
                label="New password"
                type="password"
                autoComplete="new-password"
                value={password}
                error={
                  reset.isError &&
                  errorText(reset.error, 'We could not change your password. Please try again.')
                }
                onChange={(e) => setPassword(e.target.value)}
              />
              <Button type="submit" disabled={reset.isPending}>
                {reset.isPending ? 'Saving...' : 'Set new password'}
              </Button>
            </form>
          )}
        </CardContent>
      </Card>
    </main>
  )
}
