-- Accounts linked to Google before e-mail verification existed: Google vouched for their
-- address (decision 005 links only email_verified identities), so they count as verified.
UPDATE "users" SET "email_verified_at" = "created_at" WHERE "google_id" IS NOT NULL AND "email_verified_at" IS NULL;
