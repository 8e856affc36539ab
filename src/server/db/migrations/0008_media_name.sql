ALTER TABLE "messages" ADD COLUMN "media_name" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "media_mime" text;--> statement-breakpoint
-- Exchanges stored before the columns existed take the name and type from their upload.
UPDATE "messages" SET "media_name" = "uploads"."file_name", "media_mime" = "uploads"."mime_type" FROM "uploads" WHERE "uploads"."id" = "messages"."upload_id";
