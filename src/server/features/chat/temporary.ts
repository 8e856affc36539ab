// A temporary chat's send (decision 069): admitted like any send, answered by the same model path,
// but nothing of the conversation is written: no thread, message, search entry or share. The
// client holds the conversation and sends it along (bounded by the contract). What is the
// person's, not the conversation's, still counts once the reply ends: usage, CO2 and the sent
// messages that plant trees, in one update of their row.
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'
import type { UserRow } from '#server/lib/context.ts'
import { inputCharsOf } from '#server/lib/usage.ts'
import { limitRefusal, spendSendBudget } from './admission.ts'
import { classify } from './failures.ts'
import { chargedChars, type FinishedReply, replyImpact } from './finalize.ts'
import { failUnended, finishedReply, Generation, streamModel } from './generation.ts'
import { buildPrompt, type HistoryExchange } from './history.ts'
import { contextChars, contextSystemText } from './prompt-context.ts'
import { admit, type ChatServices, contextOf } from './send.ts'
import type { SendInput } from './send-input.ts'
import { followGeneration } from './stream.ts'

export async function sendTemporary(
  s: ChatServices,
  user: UserRow,
  input: SendInput,
  signal: AbortSignal,
): Promise<Response> {
  const ctx = await contextOf(s, user, { kind: 'temporary' }, input.content)
  const { resolved, claim } = await admit(s, user, input, input.content, undefined, ctx)
  // Nothing is stored, so no statement admits it: the limits are checked on the person's row.
  const refused = await limitRefusal(s.db, user.id, claim)
  if (refused) throw refused
  await spendSendBudget(s.db, user.id, claim.plan)
  const past = input.history ?? []
  const history = past.map((e): HistoryExchange => ({ ...e, status: 'complete', mediaType: null }))
  const inputChars = inputCharsOf({ content: input.content }) + contextChars(ctx)
  const gen = new Generation()
  // Nothing keeps this reply once its tab is gone: closing it stops the model.
  const stop = () => gen.stop()
  signal.addEventListener('abort', stop, { once: true })
  const system = contextSystemText(ctx)
  const prompt = buildPrompt(history, { content: input.content }, resolved.historyBudgetTokens, system)
  const done = streamModel(gen, { resolved, prompt })
    .then(async (result) => {
      const { outcome, code } = classify(resolved.chatModel, result.ending, gen.text)
      const job = { messageId: '', attemptId: '', userId: user.id, threadId: null, inputChars, resolved }
      const reply = finishedReply(gen, job, result, outcome, s.now())
      const userMessageCount = await chargeTemporary(s.db, reply).catch((err: unknown) => {
        s.log.error({ err }, 'charging a temporary reply failed')
        return undefined
      })
      gen.finish({ outcome, code, userMessageCount })
    })
    .catch((err: unknown) => {
      s.log.error({ err }, 'temporary reply crashed')
      failUnended(gen)
    })
    .finally(() => signal.removeEventListener('abort', stop))
  // A graceful stop waits for the reply to be charged.
  s.generations.track(done)
  // The reply's id names the stream only: no row has it.
  return followGeneration(gen, { id: randomUUID() }, signal)
}

/** Charges the person's row for a temporary reply; answers their sent-message count after it. */
async function chargeTemporary(db: Db, r: FinishedReply): Promise<number | undefined> {
  const charged = chargedChars(r)
  const saved = replyImpact(r)?.saved ?? { mid: 0, min: 0, max: 0 }
  const sent = r.outcome.status === 'failed' ? 0 : 1
  const [row] = await db
    .update(users)
    .set({
      aiInputChars: sql`${users.aiInputChars} + ${charged.input}`,
      aiOutputChars: sql`${users.aiOutputChars} + ${charged.output}`,
      co2Saved: sql`${users.co2Saved} + ${saved.mid}`,
      co2SavedMin: sql`${users.co2SavedMin} + ${saved.min}`,
      co2SavedMax: sql`${users.co2SavedMax} + ${saved.max}`,
      sentMessages: sql`${users.sentMessages} + ${sent}`,
    })
    .where(sql`${users.id} = ${r.userId}`)
    .returning({ sentMessages: users.sentMessages })
  return sent ? row?.sentMessages : undefined
}
