import { describe, expect, it } from 'vitest'
import { ApiError } from '#client/lib/api.ts'
import { subscriptionStatusQueryOptions } from './get-subscription-status.ts'

// Spec section 7: GET /api/subscription/status is retried up to 3 times, except on 401.
describe('subscription status retries', () => {
  const retry = subscriptionStatusQueryOptions.retry as (failures: number, err: Error) => boolean

  it('retries other failures up to 3 times', () => {
    const err = new ApiError(503, '503: Service Unavailable')
    expect([0, 1, 2, 3].map((n) => retry(n, err))).toEqual([true, true, true, false])
    expect(retry(0, new TypeError('Failed to fetch'))).toBe(true)
  })

  it('never retries a 401', () => {
    expect(retry(0, new ApiError(401, '401: {"error":"Sign in"}'))).toBe(false)
  })
})
