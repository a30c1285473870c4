-- A transactional message's rendered content (html, text: ~4 KB for a typical order e-mail) is over PostgreSQL's
-- TOAST threshold, so every stored message is compressed in the commit statement: with the default pglz that is
-- ~50 µs of the database's CPU per message, with lz4 about half, and reading it back (the engine's claim, the
-- lookup) is faster too (ADR 0019 amendment 4). Only where the server was built with lz4 (PGlite is not: there
-- the columns keep the default). Rows already stored keep their compression until rewritten; both are readable.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE "transactional_messages" ALTER COLUMN "html" SET COMPRESSION lz4;
    ALTER TABLE "transactional_messages" ALTER COLUMN "text" SET COMPRESSION lz4;
    ALTER TABLE "transactional_attachments" ALTER COLUMN "content" SET COMPRESSION lz4;
  END IF;
END $$;
