import MailCheck from 'lucide-react/icons/mail-check'
import X from 'lucide-react/icons/x'
import { useState } from 'react'
import { useUser } from '#client/app/api/get-user.ts'
import { Button } from '#client/components/ui/button.tsx'
import { useResendVerification } from '../api/email-links.ts'

/**
 * A quiet reminder while the signed-in person's address is unconfirmed (decision 010). Nothing
 * is blocked: the link matters for Google sign-in and password resets, not for chatting. It can
 * be dismissed for the rest of the browser session (it comes back on the next visit).
 */
export function VerifyEmailBanner() {
  const { user } = useUser()
  if (!user || user.emailVerified) return null
  // One per person: the chat stays mounted across a sign-out, and a 'Link sent' is the last
  // person's, not the next one's signing in on this page.
  return <UnconfirmedAddress key={user.id} userId={user.id} email={user.email} />
}

const dismissedKey = (userId: string) => `verify-email-dismissed:${userId}`

function readDismissed(userId: string): boolean {
  try {
    return sessionStorage.getItem(dismissedKey(userId)) === '1'
  } catch {
    return false
  }
}

function UnconfirmedAddress({ userId, email }: { userId: string; email: string }) {
  const resend = useResendVerification()
  const [dismissed, setDismissed] = useState(() => readDismissed(userId))
  if (dismissed) return null
  const dismiss = () => {
    try {
      sessionStorage.setItem(dismissedKey(userId), '1')
    } catch {
      // Not remembered: it is gone from this page all the same.
    }
    setDismissed(true)
  }
  return (
    <section
      aria-label="Confirm your e-mail address"
      data-toasts-below
      // One line on phones too: a long address is cut rather than pushing the chat down.
      className="flex items-center justify-center gap-x-3 border-b bg-muted/60 px-4 py-1.5 text-xs text-muted-foreground sm:text-sm"
    >
      <MailCheck className="size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 truncate">
        <span className="hidden sm:inline">Please confirm your e-mail address: we sent a link to </span>
        <span className="sm:hidden">Confirm the link we sent to </span>
        <strong className="font-medium" title={email}>
          {email}
        </strong>
        .
      </span>
      <Button
        type="button"
        variant="link"
        size="sm"
        className="h-auto shrink-0 p-0 text-xs sm:text-sm"
        disabled={resend.isPending || resend.isSuccess}
        onClick={() => resend.mutate()}
      >
        {resend.isSuccess ? 'Link sent' : resend.isPending ? 'Sending...' : 'Resend link'}
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-6 shrink-0"
        aria-label="Dismiss the e-mail reminder"
        onClick={dismiss}
      >
        <X aria-hidden="true" />
      </Button>
    </section>
  )
}
