ALTER TABLE "users" ADD COLUMN "sent_messages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The person's sent messages, counted once here and then kept by the triggers below on every
-- path that adds, removes or settles messages (sends, imports, deletions, the lease sweep): a
-- reply's end read it by counting the person's whole history (4.45 ms at 10,000 messages).
-- Sent: origin 'sent' or 'edit' (PERSON_SENT_ORIGINS) and status not 'failed'.
UPDATE "users" u SET "sent_messages" = c.n
FROM (
  SELECT "user_id", count(*)::int AS n FROM "messages"
  WHERE "origin" IN ('sent', 'edit') AND "status" <> 'failed'
  GROUP BY "user_id"
) c
WHERE u."id" = c."user_id";--> statement-breakpoint
-- Rows inserted or deleted, once per statement over its transition table (a thread's deletion
-- is one update per person, not one per message).
CREATE FUNCTION "messages_sent_count_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" u
  SET "sent_messages" = greatest(0, u."sent_messages" + CASE WHEN TG_OP = 'INSERT' THEN c.n ELSE -c.n END)
  FROM (
    SELECT "user_id", count(*)::int AS n FROM changed
    WHERE "origin" IN ('sent', 'edit') AND "status" <> 'failed'
    GROUP BY "user_id"
  ) c
  WHERE u."id" = c."user_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "messages_sent_count_insert" AFTER INSERT ON "messages"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "messages_sent_count_rows"();--> statement-breakpoint
CREATE TRIGGER "messages_sent_count_delete" AFTER DELETE ON "messages"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "messages_sent_count_rows"();--> statement-breakpoint
-- A status that changes (a reply settled, a failed send retried): per row, and only when the row
-- starts or stops counting. Named columns only: a progress save (response, heartbeat) never fires it.
CREATE FUNCTION "messages_sent_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was boolean := OLD."origin" IN ('sent', 'edit') AND OLD."status" <> 'failed';
  is_now boolean := NEW."origin" IN ('sent', 'edit') AND NEW."status" <> 'failed';
BEGIN
  IF was = is_now AND OLD."user_id" = NEW."user_id" THEN RETURN NULL; END IF;
  IF was THEN
    UPDATE "users" SET "sent_messages" = greatest(0, "sent_messages" - 1) WHERE "id" = OLD."user_id";
  END IF;
  IF is_now THEN
    UPDATE "users" SET "sent_messages" = "sent_messages" + 1 WHERE "id" = NEW."user_id";
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "messages_sent_count_change" AFTER UPDATE OF "status", "origin", "user_id" ON "messages"
  FOR EACH ROW EXECUTE FUNCTION "messages_sent_count_change"();
