-- DropIndex
DROP INDEX "search_words_word_idx";

-- CreateTable
CREATE TABLE "search_vocabulary" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "search_vocabulary_pkey" PRIMARY KEY ("id")
);

-- Hand-written from here on. The trigram index served the per-query correction scan, which the in-memory
-- index replaces (above). The counter's one row:
INSERT INTO "search_vocabulary" ("id", "version") VALUES (1, 0);

-- The vocabulary triggers now bump the counter when they add a word. Words are inserted before the counter
-- row is locked, in every writer, so concurrent writers take their locks in the same order.
CREATE OR REPLACE FUNCTION search_words_add_inserted() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE added integer\073
BEGIN
  INSERT INTO "search_words" ("word")
  SELECT DISTINCT w FROM new_rows n, agent_search_words(n.name, n.capabilities, n.tags, n.description, n.long_description) AS w
  ORDER BY w
  ON CONFLICT DO NOTHING\073
  GET DIAGNOSTICS added = ROW_COUNT\073
  IF added > 0 THEN
    UPDATE "search_vocabulary" SET "version" = "version" + 1 WHERE "id" = 1\073
  END IF\073
  RETURN NULL\073
END';

CREATE OR REPLACE FUNCTION search_words_add_updated() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE added integer\073
BEGIN
  INSERT INTO "search_words" ("word")
  SELECT DISTINCT w
  FROM new_rows n JOIN old_rows o ON o.id = n.id,
       agent_search_words(n.name, n.capabilities, n.tags, n.description, n.long_description) AS w
  WHERE (n.name, n.capabilities, n.tags, n.description, n.long_description)
        IS DISTINCT FROM (o.name, o.capabilities, o.tags, o.description, o.long_description)
  ORDER BY w
  ON CONFLICT DO NOTHING\073
  GET DIAGNOSTICS added = ROW_COUNT\073
  IF added > 0 THEN
    UPDATE "search_vocabulary" SET "version" = "version" + 1 WHERE "id" = 1\073
  END IF\073
  RETURN NULL\073
END';

-- Phrases ("voice to text") are matched with the full-text phrase operator, which reads word positions.
-- Each field, and each capability or tag, now starts a few positions after the last one (stop words take
-- positions but leave no lexeme), so that no phrase is found across two fields: a name ending in "Voice"
-- followed by the capability "text-to-speech" is not "voice text".
CREATE OR REPLACE FUNCTION agent_search_document(name text, capabilities text[], tags text[], description text, long_description text)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english'::regconfig, coalesce(name, '')), 'A')
      || setweight(to_tsvector('english'::regconfig, 'the the the ' || array_to_string(coalesce(capabilities, '{}') || coalesce(tags, '{}'), ' the the the ')), 'B')
      || setweight(to_tsvector('english'::regconfig, 'the the the ' || coalesce(description, '')), 'C')
      || setweight(to_tsvector('english'::regconfig, 'the the the ' || coalesce(long_description, '')), 'D')
$$;

UPDATE "agents" SET "search_vector" = agent_search_document(name, capabilities, tags, description, long_description);
