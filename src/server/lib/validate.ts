import { zValidator } from '@hono/zod-validator'
import type { ValidationTargets } from 'hono'
import type { z } from 'zod'
import { AppError } from './app-error.ts'

/**
 * zValidator with our error shape: the first issue's message is the one a person reads,
 * all issues travel in `details`.
 */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const issues = result.error.issues
      const first = issues[0]
      const message = first ? first.message : 'Invalid input'
      throw new AppError('bad_request:input', message, { details: issues })
    }
  })
}
