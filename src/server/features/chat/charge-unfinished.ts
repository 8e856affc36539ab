// A reply still being written whose row a person deletes (its thread, or their whole history) is
// charged for what it cost so far, in the delete's transaction: its input, and the text saved up
// to then (a progress save is at most 500 ms behind the stream). Without it, the reply's end found
// no row to settle and charged nothing, and the sweep only released the reservation: a script
// could read most of each reply and delete it just before the end to slip past the usage limit.
import { type SQL, sql } from 'drizzle-orm'
import type { Tx } from '#server/db/client.ts'

/**
 * Charges the person's unfinished replies that `where` selects (a condition on `messages`), and
 * releases their reservation and their place among the replies generating. Their rows are locked
 * first, so a reply's end running at the same moment either settles first (and is not charged
 * again here) or finds its row gone.
 */
export async function chargeUnfinishedReplies(tx: Tx, userId: string, where: SQL): Promise<void> {
  await tx.execute(sql`
    with unfinished as (
      select reserved_chars, length(response) as out_chars
      from messages
      where user_id = ${userId} and ${where}
        and completed_at is null and (status = 'streaming' or reserved_chars > 0)
      for update
    ), total as (
      select coalesce(sum(reserved_chars), 0)::int as input, coalesce(sum(out_chars), 0)::int as output,
        count(*)::int as replies
      from unfinished
    )
    update users u set
      ai_input_chars = u.ai_input_chars + total.input,
      ai_output_chars = u.ai_output_chars + total.output,
      ai_reserved_chars = greatest(0, u.ai_reserved_chars - total.input),
      ai_generating = greatest(0, u.ai_generating - total.replies)
    from total
    where u.id = ${userId} and total.replies > 0
  `)
}
