-- The delivery mode of an agent is shown in discovery, so changing it announces a search change like the
-- other shown columns. The signing keys are not shown and announce nothing.
DROP TRIGGER agents_content_search_changed ON "agents";
CREATE TRIGGER agents_content_search_changed
  AFTER UPDATE OF id, owner_id, name, slug, description, long_description, endpoint, delivery_mode, protocols, categories,
    capabilities, tags, docs_url, manifest_url, auth_type, version, input_schema, twitter_url, status, verified,
    verified_at, card_verified, max_concurrent_tasks, max_deliveries_per_second, price_cents, created_at
  ON "agents"
  FOR EACH STATEMENT EXECUTE FUNCTION search_changed_notify();
