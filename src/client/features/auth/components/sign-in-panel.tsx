import { useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx'
import { useLogin } from '../api/login.ts'
import { useRegister } from '../api/register.ts'
import { CredentialsForm } from './credentials-form.tsx'
import { ForgotPasswordForm } from './forgot-password-form.tsx'
import { GoogleButton } from './google-button.tsx'

export type SignInTab = 'signin' | 'signup'

/**
 * The body of 'Welcome to Loris': the Google button, then Sign in / Sign up tabs. `returnTo`: the
 * page Google sign-in comes back to (the other two keep the person where they are). `invite`: an
 * operator's invitation (its address and token), which opens Sign up with the address filled in.
 */
export function SignInPanel({
  returnTo,
  invite,
  defaultTab = 'signin',
}: {
  returnTo?: string
  invite?: { email: string; token: string }
  defaultTab?: SignInTab
}) {
  const login = useLogin()
  const register = useRegister()
  const [forgot, setForgot] = useState(false)
  return (
    <div className="grid gap-4">
      <GoogleButton returnTo={returnTo} />
      <div className="flex items-center gap-3 text-xs uppercase text-muted-foreground">
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      <Tabs defaultValue={invite ? 'signup' : defaultTab}>
        <TabsList className="grid w-full grid-cols-2">
          <TabsTrigger value="signin">Sign in</TabsTrigger>
          <TabsTrigger value="signup">Sign up</TabsTrigger>
        </TabsList>
        <TabsContent value="signin" className="pt-2">
          {forgot ? (
            <ForgotPasswordForm onBack={() => setForgot(false)} />
          ) : (
            <CredentialsForm
              submitLabel="Sign in"
              pendingLabel="Signing in..."
              autoCompletePassword="current-password"
              pending={login.isPending}
              onSubmit={(v) => login.mutate(v)}
              footer={
                <Button
                  type="button"
                  variant="link"
                  className="h-auto justify-self-center p-0"
                  onClick={() => setForgot(true)}
                >
                  Forgot password?
                </Button>
              }
            />
          )}
        </TabsContent>
        <TabsContent value="signup" className="pt-2">
          <CredentialsForm
            submitLabel="Create account"
            pendingLabel="Creating account..."
            autoCompletePassword="new-password"
            pending={register.isPending}
            defaultEmail={invite?.email}
            onSubmit={(v) => register.mutate(invite ? { ...v, invite: invite.token } : v)}
          />
        </TabsContent>
      </Tabs>
    </div>
  )
}
