import { lazy, type ReactNode, Suspense, useState } from 'react'
import { useToasts } from '#client/hooks/use-toast.ts'
import { createOpenStore, useOpenStore } from '#client/lib/open-store.ts'
import { LoadFailureBoundary } from './load-failure-boundary.tsx'

// App-wide pieces every route needs, the landing page included. React Query and the tooltip
// provider live in page-shell.tsx, which the landing page does not load.

// The Radix toast code is fetched with the first toast rather than with every page. The toast
// store is plain code, so a toast raised before the chunk arrives shows as soon as it does.
const Toaster = lazy(() => import('#client/components/ui/toaster.tsx').then((m) => ({ default: m.Toaster })))

// App screens (everything in the page shell) mount it at once, so F8 reaches the notification
// region before the first toast (spec section 9); the landing page waits for its first toast.
const toasterWanted = createOpenStore()
export const mountToaster = () => toasterWanted.set(true)

function DeferredToaster() {
  const toasts = useToasts()
  const wanted = useOpenStore(toasterWanted)
  const [needed, setNeeded] = useState(false)
  if (!needed && (wanted || toasts.length > 0)) setNeeded(true)
  // Its code failing to load takes the toasts away, not the page around them.
  return needed ? (
    <LoadFailureBoundary quiet>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </LoadFailureBoundary>
  ) : null
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <DeferredToaster />
    </>
  )
}
