DROP INDEX "messages_thread_created_idx";--> statement-breakpoint
DROP INDEX "threads_user_last_idx";--> statement-breakpoint
CREATE INDEX "messages_thread_page_idx" ON "messages" USING btree ("thread_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_threadless_page_idx" ON "messages" USING btree ("user_id","created_at","id") WHERE "messages"."thread_id" is null;--> statement-breakpoint
CREATE INDEX "messages_unsettled_idx" ON "messages" USING btree ("user_id") WHERE "messages"."completed_at" is null and ("messages"."status" = 'streaming' or "messages"."reserved_chars" > 0);--> statement-breakpoint
CREATE INDEX "threads_user_page_idx" ON "threads" USING btree ("user_id","is_default","last_message_at","id");