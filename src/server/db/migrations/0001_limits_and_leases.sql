ALTER TABLE "messages" ADD COLUMN "reserved_chars" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "node_id" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ai_reserved_chars" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_streaming_idx" ON "messages" USING btree ("heartbeat_at") WHERE "messages"."status" = 'streaming';