// Custom instructions: what the person wants every mode's model to know about them and how to
// answer. GET / PUT /api/settings/instructions; app.ts hands `instructionsText` to the chat.
import { Hono } from 'hono'
import { type Instructions, instructionsSchema } from '#contract/assistant.ts'
import type { Db } from '#server/db/client.ts'
import { userInstructions } from '#server/db/schema/index.ts'
import { findInstructions } from '#server/db/user-instructions.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { requireUser } from '#server/lib/session.ts'
import { validate } from '#server/lib/validate.ts'

const NONE: Instructions = { aboutMe: '', howToRespond: '', enabled: true }

export async function readInstructions(db: Db, userId: string): Promise<Instructions> {
  return (await findInstructions(db, userId)) ?? NONE
}

/** The instructions as the system prompt carries them; empty when off or unwritten. */
/** The instructions as the system prompt carries them; empty when off or unwritten. */
export function instructionsText(i: Instructions): string {
  if (!i.enabled) return ''
  const parts: string[] = []
  if (i.aboutMe.trim()) parts.push(`What the person wants you to know about them:\n${i.aboutMe.trim()}`)
  if (i.howToRespond.trim()) parts.push(`How the person wants you to answer:\n${i.howToRespond.trim()}`)
  return parts.join('\n\n')
}

export function instructionsRoutes(deps: AppDeps) {
  const { db } = deps.database
  const auth = requireUser(deps)
  return new Hono<AppEnv>()
    .get('/settings/instructions', auth, async (c) =>
      c.json(await readInstructions(db, c.get('user').id), 200),
    )
    .put('/settings/instructions', auth, validate('json', instructionsSchema), async (c) => {
      const body = c.req.valid('json')
      const userId = c.get('user').id
      const values = { ...body, updatedAt: new Date() }
      await db
        .insert(userInstructions)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: userInstructions.userId, set: values })
      return c.json(body, 200)
    })
}
