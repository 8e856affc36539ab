import ShieldAlert from 'lucide-react/icons/shield-alert'
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { setSignInDialogOpen } from '#client/app/hooks/use-sign-in-dialog.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent } from '#client/components/ui/card.tsx'

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-dvh w-full items-center justify-center px-4">
      <Card className="w-full max-w-md">
        <CardContent className="grid gap-4 pt-6">
          <div className="flex items-center gap-2">
            <ShieldAlert className="size-7 text-primary" aria-hidden="true" />
            <h1 className="text-2xl font-bold">{title}</h1>
          </div>
          {children}
        </CardContent>
      </Card>
    </main>
  )
}

const backLinks = (
  <p className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
    <Link href="/chat" className="text-primary underline-offset-4 hover:underline">
      Go to the chat
    </Link>
    <Link href="/" className="text-primary underline-offset-4 hover:underline">
      Go to the home page
    </Link>
  </p>
)

/** A signed-in person without the role: said plainly, with the way back. */
export function NotAnOperator() {
  return (
    <Notice title="This page is for operators">
      <p className="text-sm text-muted-foreground">
        The operator's console is open only to the people who run this Loris. If you should have access, ask
        an operator to grant it to your account.
      </p>
      {backLinks}
    </Notice>
  )
}

/**
 * A visitor: sign in here (the page passes its sign-in dialog), then the console (or the notice
 * above) shows.
 */
export function SignInFirst({ signIn }: { signIn: ReactNode }) {
  return (
    <Notice title="Sign in to open the console">
      <p className="text-sm text-muted-foreground">
        The operator's console is for the people who run this Loris. Sign in with an operator's account.
      </p>
      <Button className="justify-self-start" onClick={() => setSignInDialogOpen(true)}>
        Sign in
      </Button>
      {backLinks}
      {signIn}
    </Notice>
  )
}
