import type { z } from 'zod'

/**
 * PostgreSQL text cannot hold U+0000, so a NUL in user text would fail at the database as a
 * 500. It is refused here, where the person is told which field it was in; no real keyboard
 * types it, so refusing loses nothing a person meant to send.
 */
export function withoutNul<T extends z.ZodString>(schema: T, field: string): T {
  return schema.refine((s) => !s.includes('\u0000'), {
    error: `The ${field} contains a NUL character (U+0000), which cannot be stored. Remove it and try again.`,
  }) as T
}
