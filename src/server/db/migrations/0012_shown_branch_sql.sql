-- The shown branch kept on the rows (docs/decisions/021). Thread-less messages (from before
-- threads, shown in Default) move into their owner's Default thread, so every branch lives in one
-- thread; then each exchange gets its depth (turns from its thread's first), each thread's shown
-- branch is marked (from the first turn, the version selected last at each turn, as
-- chat/branch.ts activeBranch computes it), and each user's count of replies being written is set.
UPDATE "messages" AS m SET "thread_id" = t."id"
FROM "threads" AS t
WHERE m."thread_id" IS NULL AND t."user_id" = m."user_id" AND t."is_default";
--> statement-breakpoint
WITH RECURSIVE tree(id, depth) AS (
  SELECT m."id", 0 FROM "messages" AS m
  WHERE m."thread_id" IS NOT NULL AND (m."parent_id" IS NULL OR NOT EXISTS (
    SELECT 1 FROM "messages" AS p WHERE p."id" = m."parent_id" AND p."thread_id" = m."thread_id"))
  UNION ALL
  SELECT c."id", tree.depth + 1 FROM tree
  JOIN "messages" AS p ON p."id" = tree.id
  JOIN "messages" AS c ON c."parent_id" = tree.id AND c."thread_id" = p."thread_id"
)
UPDATE "messages" AS m SET "depth" = tree.depth FROM tree WHERE m."id" = tree.id;
--> statement-breakpoint
WITH RECURSIVE branch(id, thread_id) AS (
  SELECT r."id", r."thread_id" FROM "threads" AS t CROSS JOIN LATERAL (
    SELECT m."id", m."thread_id" FROM "messages" AS m
    WHERE m."thread_id" = t."id" AND (m."parent_id" IS NULL OR NOT EXISTS (
      SELECT 1 FROM "messages" AS p WHERE p."id" = m."parent_id" AND p."thread_id" = m."thread_id"))
    ORDER BY m."selected_at" DESC, m."created_at" DESC, m."id" DESC LIMIT 1) AS r
  UNION ALL
  SELECT c."id", c."thread_id" FROM branch AS b CROSS JOIN LATERAL (
    SELECT m."id", m."thread_id" FROM "messages" AS m
    WHERE m."thread_id" = b.thread_id AND m."parent_id" = b.id
    ORDER BY m."selected_at" DESC, m."created_at" DESC, m."id" DESC LIMIT 1) AS c
)
UPDATE "messages" AS m SET "shown" = true FROM branch WHERE m."id" = branch.id;
--> statement-breakpoint
UPDATE "users" AS u SET "ai_generating" = (
  SELECT count(*) FROM "messages" AS m
  WHERE m."user_id" = u."id" AND m."completed_at" IS NULL AND m."status" = 'streaming');
