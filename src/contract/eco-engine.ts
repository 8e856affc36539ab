import { z } from 'zod'

// What the in-process Loris eco engine has measured so far: the how-it-works page and the
// calculator show it beside the estimated models. GET /api/impact/local-eco answers it (200 always;
// nulls until the first reply has been measured, or when the engine is off).
export const localEcoFiguresSchema = z.object({
  /** Display name, e.g. "Loris eco (SmolLM2 360M)". */
  model: z.string(),
  /** Whether this server runs the eco model in process (false: endpoint, or engine off). */
  inProcess: z.boolean(),
  /** Replies measured so far (the medians below are over the most recent of them). */
  samples: z.number().int().nonnegative(),
  /** RAPL counters ('measured') or CPU seconds x TDP per core ('estimated'). */
  method: z.enum(['measured', 'estimated']).nullable(),
  /** Rolling median energy per generated token, kWh. */
  energyKwhPerToken: z.number().nonnegative().nullable(),
  /** Rolling median CO2 per generated token in this deployment's zone, grams CO2eq. */
  gco2eqPerToken: z.number().nonnegative().nullable(),
  /** ISO alpha-3 zone of the deployment (LORIS_ZONE), whose mix turns energy into CO2. */
  zone: z.string(),
})
export type LocalEcoFigures = z.infer<typeof localEcoFiguresSchema>
