import { useCallback, useState } from 'react'
import { ApiError, apiJson } from '#client/lib/api.ts'
import type { WaitlistRequest, WaitlistResponse } from '#contract/waitlist.ts'

export function joinWaitlist(body: WaitlistRequest): Promise<WaitlistResponse> {
  return apiJson<WaitlistResponse>('POST', '/api/waitlist', body)
}

/** Spec section 8: the server's error text, or 'Failed to join waitlist' (also when offline). */
export function waitlistErrorText(err: unknown): string {
  return err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Failed to join waitlist'
}

type Status = 'idle' | 'pending' | 'success'

/**
 * A plain state hook rather than useMutation: React Query is not part of the landing page's
 * bundle (see app/page-shell.tsx), and this one request needs nothing it offers.
 */
export function useJoinWaitlist(opts: {
  onSuccess: (body: WaitlistRequest) => void
  onError: (err: unknown) => void
}) {
  const [status, setStatus] = useState<Status>('idle')
  const { onSuccess, onError } = opts
  const join = useCallback(
    async (body: WaitlistRequest) => {
      setStatus('pending')
      try {
        await joinWaitlist(body)
        setStatus('success')
        onSuccess(body)
      } catch (err) {
        setStatus('idle')
        onError(err)
      }
    },
    [onSuccess, onError],
  )
  return { status, join }
}
