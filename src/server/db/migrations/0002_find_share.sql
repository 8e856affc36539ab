CREATE TABLE "shares" (
	"token" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"thread_id" uuid NOT NULL,
	"title" text NOT NULL,
	"snapshot" jsonb NOT NULL,
	"allow_indexing" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "messages"."content" || ' ' || "messages"."response")) STORED;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "import_source" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "extracted_text" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, coalesce("uploads"."extracted_text", ''))) STORED;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shares_user_idx" ON "shares" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "threads_import_source_idx" ON "threads" USING btree ("user_id","import_source") WHERE "threads"."import_source" is not null;--> statement-breakpoint
CREATE INDEX "uploads_search_idx" ON "uploads" USING gin ("search_vector");