ALTER TABLE "messages" ADD COLUMN "sources" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "tool_steps" jsonb;