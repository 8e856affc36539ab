import Leaf from 'lucide-react/icons/leaf'
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { useUser } from '#client/app/api/get-user.ts'
import { setSignInDialogOpen } from '#client/app/hooks/use-sign-in-dialog.ts'
import { Button } from '#client/components/ui/button.tsx'
import { isProNow } from '#client/lib/pro-now.ts'
import { UserMenu } from './user-menu.tsx'

/**
 * Title ('Loris' or 'Loris Pro'), then the signed-in person's badges (the page composes them) and
 * the user menu, or Sign In for visitors.
 */
export function ChatHeader({ start, badges }: { start?: ReactNode; badges?: ReactNode }) {
  const { user } = useUser()
  return (
    <header
      data-toasts-below
      className="flex h-14 shrink-0 items-center gap-2 border-b px-3 min-[400px]:gap-3 sm:px-4"
    >
      {start}
      {/* One line down to 360 px wide: the leaf gives way first on the narrowest phones. */}
      <Link href="/" className="flex shrink-0 items-center gap-2 whitespace-nowrap font-semibold">
        <Leaf className="size-5 text-primary max-[379px]:hidden" aria-hidden="true" />
        <span data-testid="app-title">{isProNow(user) ? 'Loris Pro' : 'Loris'}</span>
      </Link>
      <div className="ml-auto flex items-center gap-2">
        {user ? (
          <>
            {badges}
            <UserMenu email={user.email} operator={user.operator} />
          </>
        ) : (
          <Button size="sm" onClick={() => setSignInDialogOpen(true)}>
            Sign In
          </Button>
        )}
      </div>
    </header>
  )
}
