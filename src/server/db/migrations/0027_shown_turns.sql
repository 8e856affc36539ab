CREATE TABLE "shown_turns" (
	"thread_id" uuid NOT NULL,
	"depth" integer NOT NULL,
	"message_id" uuid NOT NULL,
	CONSTRAINT "shown_turns_pkey" PRIMARY KEY("thread_id","depth")
);
--> statement-breakpoint
DROP INDEX "messages_shown_idx";--> statement-breakpoint
ALTER TABLE "shown_turns" ADD CONSTRAINT "shown_turns_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shown_turns" ADD CONSTRAINT "shown_turns_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shown_turns_message_idx" ON "shown_turns" USING btree ("message_id");--> statement-breakpoint
-- The flags move to their table before the column goes (decision 048).
INSERT INTO "shown_turns" ("thread_id", "depth", "message_id") SELECT "thread_id", "depth", "id" FROM "messages" WHERE "shown" AND "thread_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "shown";