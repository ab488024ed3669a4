-- Hand-written: trigram matching for typo-tolerant search. Created before the trigram index below.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "health_fail_streak" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "last_healthy_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_unhealthy_at" TIMESTAMPTZ(3),
ADD COLUMN     "p50_completion_ms" INTEGER,
ADD COLUMN     "p95_completion_ms" INTEGER,
ADD COLUMN     "recent_finished" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "recent_success_rate" DOUBLE PRECISION,
ADD COLUMN     "search_vector" tsvector,
ADD COLUMN     "verified_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "rated_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "search_words" (
    "word" TEXT NOT NULL,

    CONSTRAINT "search_words_pkey" PRIMARY KEY ("word")
);

-- CreateIndex
CREATE INDEX "search_words_word_idx" ON "search_words" USING GIN ("word" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "agents_search_vector_idx" ON "agents" USING GIN ("search_vector");

-- CreateIndex
CREATE INDEX "agents_protocols_idx" ON "agents" USING GIN ("protocols");

-- CreateIndex
CREATE INDEX "agents_categories_idx" ON "agents" USING GIN ("categories");

-- CreateIndex
CREATE INDEX "agents_capabilities_idx" ON "agents" USING GIN ("capabilities");

-- Hand-written from here on: what Prisma cannot express (functions, triggers, backfill).

-- The weighted full-text document of one agent: the name weighs most (A), then capabilities and tags (B),
-- then the short description (C), then the long description (D). Search ranks with these weights.
CREATE FUNCTION agent_search_document(name text, capabilities text[], tags text[], description text, long_description text)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english'::regconfig, coalesce(name, '')), 'A')
      || setweight(to_tsvector('english'::regconfig, array_to_string(coalesce(capabilities, '{}') || coalesce(tags, '{}'), ' ')), 'B')
      || setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'C')
      || setweight(to_tsvector('english'::regconfig, coalesce(long_description, '')), 'D')
$$;

-- The words of one agent's texts that a typo'd query word may be corrected to.
CREATE FUNCTION agent_search_words(name text, capabilities text[], tags text[], description text, long_description text)
RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT w
  FROM regexp_split_to_table(
    lower(concat_ws(' ', name, array_to_string(capabilities || tags, ' '), description, long_description)),
    '[^[:alnum:]]+'
  ) AS w
  WHERE length(w) BETWEEN 3 AND 40
$$;

-- Function bodies are E'' strings with \073 for each semicolon inside them: the migration runner (the
-- WASM schema engine through the pg driver adapter) splits scripts at every semicolon character, even inside dollar quotes and comments.
CREATE FUNCTION agents_refresh_search_vector() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  NEW.search_vector := agent_search_document(NEW.name, NEW.capabilities, NEW.tags, NEW.description, NEW.long_description)\073
  RETURN NEW\073
END';

CREATE TRIGGER agents_search_vector
BEFORE INSERT OR UPDATE OF name, capabilities, tags, description, long_description ON "agents"
FOR EACH ROW EXECUTE FUNCTION agents_refresh_search_vector();

-- The vocabulary only grows: a word left by a deleted agent costs a little and matches nothing. Words are
-- inserted in sorted order so that concurrent writers take their locks in the same order (no deadlock).
-- Statement triggers with transition tables keep a bulk insert to one INSERT of words.
CREATE FUNCTION search_words_add_inserted() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "search_words" ("word")
  SELECT DISTINCT w FROM new_rows n, agent_search_words(n.name, n.capabilities, n.tags, n.description, n.long_description) AS w
  ORDER BY w
  ON CONFLICT DO NOTHING\073
  RETURN NULL\073
END';

CREATE FUNCTION search_words_add_updated() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "search_words" ("word")
  SELECT DISTINCT w
  FROM new_rows n JOIN old_rows o ON o.id = n.id,
       agent_search_words(n.name, n.capabilities, n.tags, n.description, n.long_description) AS w
  WHERE (n.name, n.capabilities, n.tags, n.description, n.long_description)
        IS DISTINCT FROM (o.name, o.capabilities, o.tags, o.description, o.long_description)
  ORDER BY w
  ON CONFLICT DO NOTHING\073
  RETURN NULL\073
END';

CREATE TRIGGER agents_search_words_inserted
AFTER INSERT ON "agents" REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION search_words_add_inserted();

CREATE TRIGGER agents_search_words_updated
AFTER UPDATE ON "agents" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION search_words_add_updated();

-- Agents that existed before this migration.
UPDATE "agents" SET "search_vector" = agent_search_document(name, capabilities, tags, description, long_description);
INSERT INTO "search_words" ("word")
SELECT DISTINCT w FROM "agents" a, agent_search_words(a.name, a.capabilities, a.tags, a.description, a.long_description) AS w
ORDER BY w
ON CONFLICT DO NOTHING;
