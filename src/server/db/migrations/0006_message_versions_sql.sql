-- Message versions (docs/decisions/012): every stored exchange follows the one before it in its
-- thread, so existing conversations read as one branch. Thread-less messages (shown in Default)
-- chain per user. selected_at starts at created_at: no version has been chosen yet.
UPDATE "messages" AS m
SET "parent_id" = (
  SELECT p."id" FROM "messages" AS p
  WHERE p."user_id" = m."user_id"
    AND p."thread_id" IS NOT DISTINCT FROM m."thread_id"
    AND (p."created_at", p."id") < (m."created_at", m."id")
  ORDER BY p."created_at" DESC, p."id" DESC
  LIMIT 1
),
"selected_at" = m."created_at";
