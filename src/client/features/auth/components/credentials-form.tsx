import { type FormEvent, type ReactNode, useId, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { Label } from '#client/components/ui/label.tsx'

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
      <div className="grid gap-2">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-password`}>Password</Label>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete={autoCompletePassword}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
      {footer}
    </form>
  )
}
