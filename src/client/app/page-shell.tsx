// What every screen except the landing page runs inside: React Query and the Radix tooltip
// provider. It is its own chunk, loaded beside the page, so the landing page stays small (issue
// #8). Anything that uses React Query or tooltips belongs inside a page, not in providers.tsx.
import { QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useEffect } from 'react'
import { forgetThePersonWhenChanged } from '#client/app/api/get-user.ts'
import { TooltipProvider } from '#client/components/ui/tooltip.tsx'
import { createQueryClient } from '#client/lib/query-client.ts'
import { mountToaster } from './providers.tsx'

// One client for the whole visit: pages mount and unmount around it, the cache stays, until
// someone else is signed in (or no one): then nothing of the last person's stays with it.
export const queryClient = createQueryClient()
forgetThePersonWhenChanged(queryClient)

export function PageShell({ children }: { children: ReactNode }) {
  useEffect(mountToaster, [])
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>{children}</TooltipProvider>
    </QueryClientProvider>
  )
}
