import { MailCheck } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'
import { useResendVerification } from '../api/email-links.ts'
import { useUser } from '../api/get-user.ts'

/**
 * A quiet reminder while the signed-in person's address is unconfirmed (decision 010). Nothing
 * is blocked: the link matters for Google sign-in and password resets, not for chatting.
 */
export function VerifyEmailBanner() {
  const { user } = useUser()
  const resend = useResendVerification()
  if (!user || user.emailVerified) return null
  return (
    <section
      aria-label="Confirm your e-mail address"
      className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 border-b bg-muted/60 px-4 py-1.5 text-sm text-muted-foreground"
    >
      <MailCheck className="size-4 shrink-0" aria-hidden="true" />
      <span>
        Please confirm your e-mail address: we sent a link to{' '}
        <strong className="font-medium">{user.email}</strong>.
      </span>
      <Button
        type="button"
        variant="link"
        size="sm"
        className="h-auto p-0"
        disabled={resend.isPending || resend.isSuccess}
        onClick={() => resend.mutate()}
      >
        {resend.isSuccess ? 'Link sent' : resend.isPending ? 'Sending...' : 'Resend link'}
      </Button>
    </section>
  )
}
