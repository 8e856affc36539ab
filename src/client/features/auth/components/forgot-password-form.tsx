import { type FormEvent, useId, useState } from 'react'
import { EmailField } from '#client/components/text-field.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { errorText } from '#client/lib/api.ts'
import { useForgotPassword } from '../api/email-links.ts'

/**
 * "Forgot password?" inside the Sign in tab. The answer is the same whether or not the address
 * has an account, so the confirmation says "if".
 */
export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const id = useId()
  const [email, setEmail] = useState('')
  const forgot = useForgotPassword()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    forgot.mutate(email)
  }
  if (forgot.isSuccess) {
    return (
      <div className="grid gap-4">
        <p role="status" className="text-sm">
          If an account exists for <strong>{email.trim()}</strong>, we have sent it a link to choose a new
          password. The link works once and expires in 30 minutes.
        </p>
        <Button type="button" variant="outline" onClick={onBack}>
          Back to sign in
        </Button>
      </div>
    )
  }
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <p className="text-sm text-muted-foreground">
        Enter the e-mail address of your account and we will send you a link to choose a new password.
      </p>
      <EmailField
        id={`${id}-email`}
        label="Email"
        value={email}
        error={forgot.isError && errorText(forgot.error, 'Something went wrong. Please try again.')}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Button type="submit" disabled={forgot.isPending}>
        {forgot.isPending ? 'Sending link...' : 'Send reset link'}
      </Button>
      <Button type="button" variant="ghost" onClick={onBack}>
        Back to sign in
      </Button>
    </form>
  )
}
