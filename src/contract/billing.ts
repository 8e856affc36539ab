import { z } from 'zod'

/** POST /api/subscribe and POST /api/create-portal-session: where the browser goes next. */
export const redirectUrlSchema = z.object({ url: z.url() })
export type RedirectUrl = z.infer<typeof redirectUrlSchema>

/**
 * GET /api/subscription/status (spec sections 3 and 7), from the state stored by the webhooks.
 * `current_period_end` is in Unix seconds: the end of the paid period, or when an ended
 * subscription stopped; null when the user never subscribed. `status` is Stripe's own.
 */
export const subscriptionStatusSchema = z.object({
  isSubscribed: z.boolean(),
  subscription: z.object({
    current_period_end: z.number().int().nullable(),
    status: z.string().nullable(),
  }),
})
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>

/** What the webhook answers Stripe; `ignored` names why nothing changed. */
export const webhookAnswerSchema = z.object({
  received: z.literal(true),
  ignored: z.enum(['duplicate', 'unhandled_type', 'unknown_customer']).optional(),
})
export type WebhookAnswer = z.infer<typeof webhookAnswerSchema>
