// What /share/:token shows when the conversation did not load. Only the server's own answer that
// the link is unknown says so: a 500, a 503 or a dropped connection says nothing about the link,
// and calling it revoked sent readers away and told owners their links were dead.
import RotateCw from 'lucide-react/icons/rotate-cw'
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { Button } from '#client/components/ui/button.tsx'
import { ApiError } from '#client/lib/api.ts'

/**
 * 404: no such link (revoked, or its thread or owner deleted). 400: the token is not one the
 * server could have made, e.g. a link cut short when it was copied.
 */
export function isLinkGone(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 400)
}

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      {children}
      <Link href="/" className="mt-6 inline-block text-primary hover:underline">
        Go to Loris
      </Link>
    </main>
  )
}

export function ShareLoadFailed({
  error,
  retrying,
  onRetry,
}: {
  error: unknown
  retrying: boolean
  onRetry: () => void
}) {
  if (isLinkGone(error))
    return (
      <Notice title="This link does not exist">
        <p className="mt-2 text-muted-foreground">It may have been revoked by the person who shared it.</p>
      </Notice>
    )
  return (
    <Notice title="Could not load this conversation">
      <p className="mt-2 text-muted-foreground">
        Something went wrong on the way. The link itself may be fine: try again in a moment.
      </p>
      <div>
        <Button className="mt-6" onClick={onRetry} disabled={retrying}>
          <RotateCw aria-hidden="true" /> {retrying ? 'Trying again...' : 'Try again'}
        </Button>
      </div>
    </Notice>
  )
}
