import { type FormEvent, type ReactNode, useId, useState } from 'react'
import { EmailField, TextField } from '#client/components/text-field.tsx'
import { Button } from '#client/components/ui/button.tsx'

// Spec section 5: no client rules on sign-in/sign-up; the server's messages are shown.
export function CredentialsForm({
  submitLabel,
  pendingLabel,
  autoCompletePassword,
  pending,
  onSubmit,
  footer,
  defaultEmail = '',
}: {
  submitLabel: string
  pendingLabel: string
  autoCompletePassword: 'current-password' | 'new-password'
  pending: boolean
  onSubmit: (values: { email: string; password: string }) => void
  /** Below the submit button, e.g. "Forgot password?". */
  footer?: ReactNode
  /** The address filled in at first (an invitation link names it). */
  defaultEmail?: string
}) {
  const id = useId()
  const [email, setEmail] = useState(defaultEmail)
  const [password, setPassword] = useState('')
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSubmit({ email, password })
  }
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <EmailField id={`${id}-email`} label="Email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <TextField
        id={`${id}-password`}
        label="Password"
        type="password"
        autoComplete={autoCompletePassword}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Button type="submit" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
      {footer}
    </form>
  )
}
