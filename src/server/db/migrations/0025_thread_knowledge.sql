ALTER TABLE "passages" ALTER COLUMN "project_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "project_files" ALTER COLUMN "project_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "passages" ADD COLUMN "thread_id" uuid;--> statement-breakpoint
ALTER TABLE "project_files" ADD COLUMN "thread_id" uuid;--> statement-breakpoint
ALTER TABLE "project_files" ADD COLUMN "upload_id" uuid;--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_files" ADD CONSTRAINT "project_files_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_files" ADD CONSTRAINT "project_files_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "passages_thread_idx" ON "passages" USING btree ("thread_id","file_id","ordinal") WHERE "passages"."thread_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "project_files_thread_upload_idx" ON "project_files" USING btree ("thread_id","upload_id") WHERE "project_files"."thread_id" is not null;--> statement-breakpoint
CREATE INDEX "messages_thread_documents_idx" ON "messages" USING btree ("thread_id","upload_id") WHERE "messages"."media_type" = 'document' and "messages"."upload_id" is not null;--> statement-breakpoint
ALTER TABLE "project_files" ADD CONSTRAINT "project_files_one_owner" CHECK (("project_files"."project_id" is null) <> ("project_files"."thread_id" is null));