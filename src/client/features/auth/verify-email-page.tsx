// /verify-email?token=...: the page a confirmation link opens. It posts the token itself, so
// mail scanners that merely fetch the link do not use it up (decision 010).
import CheckCircle2 from 'lucide-react/icons/circle-check'
import XCircle from 'lucide-react/icons/circle-x'
import Loader2 from 'lucide-react/icons/loader-circle'
import { useEffect, useRef } from 'react'
import { Link, useSearch } from 'wouter'
import { Card, CardContent } from '#client/components/ui/card.tsx'
import { errorText } from '#client/lib/api.ts'
import { useVerifyEmail } from './api/email-links.ts'

export default function VerifyEmailPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  const verify = useVerifyEmail()
  const sent = useRef(false)
  useEffect(() => {
    if (sent.current) return
    sent.current = true
    verify.mutate(token)
  }, [token, verify])

  return (
    <main className="flex min-h-dvh w-full items-center justify-center px-4">
      <Card className="w-full max-w-md">
        <CardContent className="grid gap-4 pt-6">
          <h1 className="text-2xl font-bold">Confirm your e-mail address</h1>
          {verify.isSuccess ? (
            <p role="status" className="flex items-center gap-2">
              <CheckCircle2 className="size-5 text-primary" aria-hidden="true" />
              Your e-mail address is confirmed. Thank you!
            </p>
          ) : verify.isError ? (
            <p role="alert" className="flex items-center gap-2 text-destructive">
              <XCircle className="size-5 shrink-0" aria-hidden="true" />
              {errorText(verify.error, 'We could not confirm your address. Please try again.')}
            </p>
          ) : (
            <p role="status" className="flex items-center gap-2 text-muted-foreground">
              <Loader2 className="size-5 animate-spin" aria-hidden="true" />
              Confirming your address...
            </p>
          )}
          <Link href="/chat" className="text-sm text-primary underline-offset-4 hover:underline">
            Go to the chat
          </Link>
        </CardContent>
      </Card>
    </main>
  )
}
