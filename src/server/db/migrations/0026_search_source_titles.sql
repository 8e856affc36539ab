ALTER TABLE "messages" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (case when "messages"."status" = 'streaming' then null else to_tsvector('simple'::regconfig, "messages"."content" || ' ' || "messages"."response") || to_tsvector('simple'::regconfig, jsonb_path_query_array(coalesce("messages"."sources", '[]'::jsonb), '$[*].title')) end) STORED;--> statement-breakpoint
-- Re-creating the column (drizzle drops and adds a generated column to change its expression)
-- dropped its GIN index with it: built again here.
CREATE INDEX IF NOT EXISTS "messages_search_idx" ON "messages" USING gin ("search_vector");
