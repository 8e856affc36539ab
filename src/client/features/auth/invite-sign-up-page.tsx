import { useEffect } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import { Card, CardContent, CardDescription, CardHeader } from '#client/components/ui/card.tsx'
import { PageSpinner } from '#client/components/ui/spinner.tsx'
import { useUser } from './api/get-user.ts'
import { SignInPanel } from './components/sign-in-panel.tsx'

/**
 * /auth?tab=signup&email=&invite=: where an operator's invitation link lands (features/admin).
 * Sign up opens with the invited address filled in, and registering sends the invitation's token
 * (which an invite-only server requires). Once someone is signed in, the chat takes over.
 */
export default function InviteSignUpPage() {
  const params = new URLSearchParams(useSearch())
  const token = params.get('invite')
  const invite = token ? { email: params.get('email') ?? '', token } : undefined
  const { user, isLoading } = useUser()
  const [, navigate] = useLocation()
  useEffect(() => {
    if (user) navigate('/chat', { replace: true })
  }, [user, navigate])
  if (isLoading || user) return <PageSpinner />
  return (
    <main className="flex min-h-dvh w-full items-center justify-center px-4 py-8">
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-2xl font-bold">{invite ? 'You are invited to Loris' : 'Welcome to Loris'}</h1>
          <CardDescription>
            {invite
              ? 'Create your account with the address the invitation was sent to.'
              : 'Sign in to chat, keep your threads and track the CO2 you save.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <SignInPanel invite={invite} />
          <Link
            href="/"
            className="justify-self-center text-sm text-primary underline-offset-4 hover:underline"
          >
            Go to the home page
          </Link>
        </CardContent>
      </Card>
    </main>
  )
}
