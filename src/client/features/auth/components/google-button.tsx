import { useEffect, useState } from 'react'
import { useAppConfig } from '#client/app/api/get-config.ts'
import { Button } from '#client/components/ui/button.tsx'

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path
        fill="#EA4335"
        d="M12 10.2v3.9h5.5c-.24 1.4-1.7 4.1-5.5 4.1-3.3 0-6-2.7-6-6.1s2.7-6.1 6-6.1c1.9 0 3.1.8 3.8 1.5l2.6-2.5C16.8 3.5 14.6 2.5 12 2.5 6.8 2.5 2.6 6.7 2.6 12s4.2 9.5 9.4 9.5c5.4 0 9-3.8 9-9.2 0-.6-.1-1.1-.2-1.6H12z"
      />
    </svg>
  )
}

/**
 * Navigates to /auth/google; explains instead when this server has no Google credentials.
 * `returnTo`: the page to come back to (the server keeps it only if it is one of ours), else /chat.
 */
export function GoogleButton({ returnTo }: { returnTo?: string }) {
  const config = useAppConfig()
  const [explained, setExplained] = useState(false)
  const [leaving, setLeaving] = useState(false)
  const unavailable = config && !config.googleSignIn.available
  // Coming back with the browser's Back button restores this page from its cache: re-enable.
  useEffect(() => {
    const reset = () => setLeaving(false)
    window.addEventListener('pageshow', reset)
    return () => window.removeEventListener('pageshow', reset)
  }, [])
  return (
    <div className="grid gap-2">
      <Button
        variant="outline"
        className="w-full"
        disabled={leaving}
        onClick={() => {
          if (unavailable) return setExplained(true)
          setLeaving(true)
          window.location.assign(
            returnTo ? `/auth/google?${new URLSearchParams({ next: returnTo })}` : '/auth/google',
          )
        }}
      >
        <GoogleMark />
        {leaving ? 'Redirecting to Google...' : 'Continue with Google'}
      </Button>
      {explained && unavailable && (
        <p role="status" className="text-center text-sm text-muted-foreground">
          {config.googleSignIn.reason}. Use e-mail and password below.
        </p>
      )}
    </div>
  )
}
