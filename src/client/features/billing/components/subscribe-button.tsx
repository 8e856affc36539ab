import Loader2 from 'lucide-react/icons/loader-circle'
import { useAppConfig } from '#client/app/api/get-config.ts'
import { useUser } from '#client/app/api/get-user.ts'
import { setSignInDialogOpen } from '#client/app/hooks/use-sign-in-dialog.ts'
import { Button } from '#client/components/ui/button.tsx'
import { cn } from '#client/lib/cn.ts'
import { useSubscribe } from '../api/subscribe.ts'

export const PRICE_LABEL = '$23.99/month'

/** 'Subscribe Now - $23.99/month', 'Processing...' while Checkout is being prepared (spec 4). */
export function SubscribeButton({
  className,
  onSignInNeeded,
}: {
  className?: string
  onSignInNeeded?: () => void
}) {
  const { user } = useUser()
  const payments = useAppConfig()?.payments
  const { mutate, isPending, isSuccess } = useSubscribe()
  const busy = isPending || isSuccess
  const unavailable = payments ? !payments.available : false
  return (
    <div className={cn('grid gap-2', className)}>
      <Button
        size="lg"
        className="w-full"
        disabled={busy || unavailable}
        aria-busy={busy}
        onClick={() => {
          if (!user) {
            onSignInNeeded?.()
            setSignInDialogOpen(true)
            return
          }
          mutate()
        }}
      >
        {busy ? (
          <>
            <Loader2 className="animate-spin" aria-hidden="true" />
            Processing...
          </>
        ) : (
          `Subscribe Now - ${PRICE_LABEL}`
        )}
      </Button>
      {unavailable && payments?.reason ? (
        <p className="text-center text-xs text-muted-foreground" role="note">
          {payments.reason}
        </p>
      ) : null}
    </div>
  )
}
