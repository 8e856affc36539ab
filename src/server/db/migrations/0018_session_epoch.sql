-- Decision 041: a session is good only while its epoch is its user's; a reset raises the user's.
ALTER TABLE "sessions" ADD COLUMN "epoch" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_epoch" integer DEFAULT 0 NOT NULL;