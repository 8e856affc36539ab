-- Exchanges brought in from ChatGPT were stored as 'sent', so they counted as messages written
-- here (the sent count behind trees and the upgrade prompt). They are 'import' now; the trigger
-- of migration 0015 (AFTER UPDATE OF origin) takes them out of their owner's count. Trees
-- already planted stay planted.
UPDATE "messages" SET "origin" = 'import'
  WHERE "origin" = 'sent'
    AND "thread_id" IN (SELECT "id" FROM "threads" WHERE "import_source" LIKE 'chatgpt:%');
