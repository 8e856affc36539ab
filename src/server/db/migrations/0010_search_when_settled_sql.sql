-- 0009 re-created messages.search_vector (drizzle drops and adds a generated column to change its
-- expression), which dropped its GIN index with it: built again here (decision 019).
CREATE INDEX IF NOT EXISTS "messages_search_idx" ON "messages" USING gin ("search_vector");
