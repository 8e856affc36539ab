DROP INDEX "threads_user_page_idx";--> statement-breakpoint
CREATE INDEX "threads_user_page_idx" ON "threads" USING btree ("user_id","is_default","is_favorite","last_message_at","id");