DROP INDEX "messages_streaming_idx";--> statement-breakpoint
-- A progress save (decision 019) changes only a streaming reply's response and heartbeat_at: with
-- neither indexed it is a HOT update, written beside the old version on its page without an entry
-- in any of the table's indexes, if the page has room. 30 percent of each new page is kept for
-- that (issue 15: a save of 50 replies 3.96 -> 2.10 ms, the table and its indexes half the size).
-- The sweep finds lapsed replies by messages_unsettled_idx, whose condition it repeats.
ALTER TABLE "messages" SET (fillfactor = 70);
