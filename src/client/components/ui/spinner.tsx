import Loader2 from 'lucide-react/icons/loader-circle'
import { cn } from '#client/lib/cn.ts'

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <Loader2 role="status" aria-label={label} className={cn('size-6 animate-spin text-primary', className)} />
  )
}

/** The centred spinner shown while the auth state loads (spec section 2). */
export function PageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner className="size-8" />
    </div>
  )
}
