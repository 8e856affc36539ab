// /auth: 'Welcome to Loris' as a full page (spec section 2, "shown as a dialog or as a full
// page"); it goes to /chat once someone is signed in. ?tab=signup opens the Sign up tab (/signup
// lands here so), anything else Sign in. Google sign-in comes back to /chat, as from the dialog
// (a failure is told there).
import Leaf from 'lucide-react/icons/leaf'
import { useEffect } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import { useUser } from '#client/app/api/get-user.ts'
import { PageSpinner } from '#client/components/ui/spinner.tsx'
import { SignInPanel, type SignInTab } from './components/sign-in-panel.tsx'

export default function AuthPage() {
  const { user, isLoading } = useUser()
  const [, navigate] = useLocation()
  const params = new URLSearchParams(useSearch())
  const tab: SignInTab = params.get('tab') === 'signup' ? 'signup' : 'signin'
  // An operator's invitation (features/admin): Sign up with the invited address, sending its token.
  const token = params.get('invite')
  const invite = token ? { email: params.get('email') ?? '', token } : undefined
  useEffect(() => {
    if (user) navigate('/chat', { replace: true })
  }, [user, navigate])
  if (isLoading || user) return <PageSpinner />
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center px-4 py-10">
      <div className="w-full max-w-md rounded-xl border bg-card p-6 shadow-sm sm:p-8">
        <Link href="/" className="mb-6 flex items-center justify-center gap-2 font-semibold">
          <Leaf className="size-5 text-primary" aria-hidden="true" />
          Loris
        </Link>
        <h1 className="text-center text-2xl font-semibold">
          {invite ? 'You are invited to Loris' : 'Welcome to Loris'}
        </h1>
        <p className="mb-6 mt-2 text-center text-sm text-muted-foreground">
          {invite
            ? 'Create your account with the address the invitation was sent to.'
            : 'Sign in to chat, keep your threads and track the CO2 you save.'}
        </p>
        <SignInPanel defaultTab={tab} invite={invite} />
      </div>
      <Link href="/chat" className="mt-6 text-sm text-primary hover:underline">
        Continue to the chat without signing in
      </Link>
    </main>
  )
}
