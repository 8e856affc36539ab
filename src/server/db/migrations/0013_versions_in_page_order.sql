DROP INDEX "messages_thread_parent_idx";--> statement-breakpoint
CREATE INDEX "messages_thread_parent_idx" ON "messages" USING btree ("thread_id","parent_id","created_at","id");