-- Which attempt at a reply a row holds (decision 009): a retry that restarts a lost reply's row
-- gives it a new attempt, and a node still writing the old one has its saves and its end refused.
-- Nullable and without a default, so adding it rewrites nothing (a volatile default such as
-- gen_random_uuid() would rewrite the whole table). No backfill: rows streaming now belong to
-- nodes running the code before this, whose statements do not compare attempts, and no generation
-- here carries a null attempt, so such a row is ended by its own node, the lease sweep or a
-- restart (which gives it an attempt). Not indexed: progress saves stay HOT updates (0014).
ALTER TABLE "messages" ADD COLUMN "attempt_id" uuid;
