import CreditCard from 'lucide-react/icons/credit-card'
import Loader2 from 'lucide-react/icons/loader-circle'
import { Button } from '#client/components/ui/button.tsx'
import { useCreatePortalSession } from '../api/create-portal-session.ts'

/** 'Manage Payment Methods', 'Opening portal...' until Stripe's portal page loads (spec 4). */
export function ManagePaymentsButton({ className }: { className?: string }) {
  const { mutate, isPending, isSuccess } = useCreatePortalSession()
  const busy = isPending || isSuccess
  return (
    <Button variant="outline" className={className} disabled={busy} aria-busy={busy} onClick={() => mutate()}>
      {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <CreditCard aria-hidden="true" />}
      {busy ? 'Opening portal...' : 'Manage Payment Methods'}
    </Button>
  )
}
