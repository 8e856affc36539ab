// The energy an eco service (`npm run eco:serve`) metered for one reply, as it reports it in the
// reply's usage (`loris_energy`): the web node stores it as measured, like an in-process reply's.
import { z } from 'zod'
import type { MeasuredEnergy } from '#server/features/impact/message-impact.ts'

const reported = z.object({
  joules: z.number().nonnegative().finite(),
  method: z.enum(['measured', 'estimated']),
})

/** The energy in a usage object's `loris_energy`, or in provider metadata's `loris`; else null. */
export function reportedEnergy(value: unknown): MeasuredEnergy | null {
  const parsed = reported.safeParse(value)
  return parsed.success ? parsed.data : null
}

/** The AI SDK's provider metadata of an eco endpoint reply (chat/providers/eco.ts). */
export const energyFromMetadata = (metadata: Record<string, unknown> | undefined) =>
  reportedEnergy(metadata?.loris)
