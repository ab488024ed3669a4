-- CreateTable
CREATE TABLE "search_phrases" (
    "phrase" TEXT NOT NULL,
    "query" tsquery NOT NULL,

    CONSTRAINT "search_phrases_pkey" PRIMARY KEY ("phrase")
);

-- The phrases as of this migration (src/search/text/synonyms.ts), each with the tsquery that finds it
-- (its words in order, stop words keeping their places).
INSERT INTO "search_phrases" ("phrase", "query")
SELECT p, phraseto_tsquery('english'::regconfig, p)
FROM unnest(ARRAY['curriculum vitae', 'voice to text', 'speech to text', 'text to speech', 'speech synthesis', 'read aloud',
                  'help desk', 'customer support', 'support desk', 'text recognition', 'search engine optimization', 'database query']) AS p;

-- The phrases a field has, as lexemes of the field weight at one position each (ts_rank weighs them by it).
CREATE FUNCTION search_phrase_lexemes(field tsvector, weight "char") RETURNS tsvector LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(setweight(string_agg(quote_literal(p.phrase) || ':1', ' ')::tsvector, weight), ''::tsvector)
  FROM search_phrases p WHERE field @@ p.query
$$;

-- As before, plus the phrases of the name, the capabilities and tags, and the description: long
-- descriptions are loose prose, where "voice reads text" would pass for voice to text.
CREATE OR REPLACE FUNCTION agent_search_document(name text, capabilities text[], tags text[], description text, long_description text)
RETURNS tsvector LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT setweight(f.a, 'A') || setweight(f.b, 'B') || setweight(f.c, 'C') || setweight(f.d, 'D')
      || search_phrase_lexemes(f.a, 'A') || search_phrase_lexemes(f.b, 'B') || search_phrase_lexemes(f.c, 'C')
  FROM (SELECT to_tsvector('english'::regconfig, coalesce(name, '')) AS a,
               to_tsvector('english'::regconfig, 'the the the ' || array_to_string(coalesce(capabilities, '{}') || coalesce(tags, '{}'), ' the the the ')) AS b,
               to_tsvector('english'::regconfig, 'the the the ' || coalesce(description, '')) AS c,
               to_tsvector('english'::regconfig, 'the the the ' || coalesce(long_description, '')) AS d) f
$$;

-- Only documents with one of the phrases somewhere change.
UPDATE "agent_search" s
SET "search_vector" = agent_search_document(a.name, a.capabilities, a.tags, a.description, a.long_description)
FROM "agents" a
WHERE a.id = s.id AND EXISTS (SELECT 1 FROM "search_phrases" p WHERE s.search_vector @@ p.query);
