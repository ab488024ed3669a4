-- Hand-written: every process that caches search results (src/search/result-cache.ts) must hear when
-- they may have changed. A statement on the tables a search reads sends a notification on the channel
-- search_changed, which PostgreSQL delivers to the listening processes when the transaction commits, once
-- per transaction however many statements sent it, and never for one rolled back. Statement-level, so a
-- bulk write costs one call. Function bodies are E'' strings with \073 for each semicolon (see the
-- discovery_search migration).

CREATE FUNCTION search_changed_notify() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM pg_notify(''search_changed'', '''')\073
  RETURN NULL\073
END';

CREATE TRIGGER agents_search_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "agents"
  FOR EACH STATEMENT EXECUTE FUNCTION search_changed_notify();
CREATE TRIGGER agent_search_search_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "agent_search"
  FOR EACH STATEMENT EXECUTE FUNCTION search_changed_notify();
CREATE TRIGGER search_vocabulary_search_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "search_vocabulary"
  FOR EACH STATEMENT EXECUTE FUNCTION search_changed_notify();
CREATE TRIGGER search_phrases_search_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "search_phrases"
  FOR EACH STATEMENT EXECUTE FUNCTION search_changed_notify();
