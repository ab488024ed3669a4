-- Hand-written: cached search results (src/search/result-cache.ts) end at once when the content or
-- visibility changes, not when its figures do. Every task writes the figures of its agent (the task count at
-- creation, health after a delivery, counts and trust after the callback), and each such write used to end
-- every cached result, so under a steady stream of tasks the cache held almost nothing (issue 25). The
-- figures (counts, reputation, health, endpoint state) now reach cached results when they are searched
-- again, within SEARCH_CACHE_TTL_MS, as they reach Typesense through its sync jobs.
--
-- UPDATE OF fires when a listed column is set by the statement, whatever its value. The list is the
-- agents columns a search filters on or shows other than the figures, and test/search-cache-invalidation.test.ts
-- fails when a column of agents is in neither this list nor its list of figures.
--
-- agent_search is written only by the triggers of agents (its row trigger sets every column on every
-- agents update, so it cannot tell figures from content) and by a reindex, which also rewrites the phrases
-- and the vocabulary, both announced. Its inserts and deletes are still announced.
-- (No semicolons in these comments: the migration runner splits the script at each one.)

DROP TRIGGER agents_search_changed ON "agents";
CREATE TRIGGER agents_search_changed AFTER INSERT OR DELETE OR TRUNCATE ON "agents"
  FOR EACH STATEMENT EXECUTE FUNCTION search_changed_notify();
CREATE TRIGGER agents_content_search_changed
  AFTER UPDATE OF id, owner_id, name, slug, description, long_description, endpoint, protocols, categories,
    capabilities, tags, docs_url, manifest_url, auth_type, version, input_schema, twitter_url, status, verified,
    verified_at, card_verified, max_concurrent_tasks, max_deliveries_per_second, price_cents, created_at
  ON "agents"
  FOR EACH STATEMENT EXECUTE FUNCTION search_changed_notify();

DROP TRIGGER agent_search_search_changed ON "agent_search";
CREATE TRIGGER agent_search_search_changed AFTER INSERT OR DELETE OR TRUNCATE ON "agent_search"
  FOR EACH STATEMENT EXECUTE FUNCTION search_changed_notify();
