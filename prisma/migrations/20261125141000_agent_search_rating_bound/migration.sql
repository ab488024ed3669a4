-- Hand-written: discovery's sort=rating orders by agents.rating_lower_bound (migration
-- bounded_reputation), and text searches rank on agent_search, which must hold every column a sort uses.
-- The copy follows the agent through the same triggers (migration agent_search_table), now with the
-- bound. Function bodies are E'' strings with \073 for each semicolon (see the discovery_search migration).

ALTER TABLE "agent_search" ADD COLUMN "rating_lower_bound" DOUBLE PRECISION;

UPDATE "agent_search" s SET rating_lower_bound = a.rating_lower_bound FROM "agents" a WHERE a.id = s.id;

CREATE OR REPLACE FUNCTION agent_search_insert() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO agent_search (trust_score, rating_sum, rating_count, task_count, created_at, updated_at, status, search_vector, id, protocols, categories, capabilities, rating_lower_bound)
  VALUES (NEW.trust_score, NEW.rating_sum, NEW.rating_count, NEW.task_count, NEW.created_at, NEW.updated_at, NEW.status,
          agent_search_document(NEW.name, NEW.capabilities, NEW.tags, NEW.description, NEW.long_description),
          NEW.id, NEW.protocols, NEW.categories, NEW.capabilities, NEW.rating_lower_bound)\073
  RETURN NULL\073
END';

CREATE OR REPLACE FUNCTION agent_search_update() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE agent_search SET
    trust_score = NEW.trust_score, rating_sum = NEW.rating_sum, rating_count = NEW.rating_count,
    task_count = NEW.task_count, created_at = NEW.created_at, updated_at = NEW.updated_at, status = NEW.status,
    search_vector = CASE
      WHEN (NEW.name, NEW.capabilities, NEW.tags, NEW.description, NEW.long_description)
           IS DISTINCT FROM (OLD.name, OLD.capabilities, OLD.tags, OLD.description, OLD.long_description)
      THEN agent_search_document(NEW.name, NEW.capabilities, NEW.tags, NEW.description, NEW.long_description)
      ELSE search_vector END,
    protocols = NEW.protocols, categories = NEW.categories, capabilities = NEW.capabilities,
    rating_lower_bound = NEW.rating_lower_bound
  WHERE id = NEW.id\073
  RETURN NULL\073
END';

DROP TRIGGER agent_search_update ON "agents";
CREATE TRIGGER agent_search_update
AFTER UPDATE ON "agents"
FOR EACH ROW
WHEN ((OLD.trust_score, OLD.rating_sum, OLD.rating_count, OLD.task_count, OLD.created_at, OLD.updated_at, OLD.status,
       OLD.name, OLD.capabilities, OLD.tags, OLD.description, OLD.long_description, OLD.protocols, OLD.categories,
       OLD.rating_lower_bound)
      IS DISTINCT FROM
      (NEW.trust_score, NEW.rating_sum, NEW.rating_count, NEW.task_count, NEW.created_at, NEW.updated_at, NEW.status,
       NEW.name, NEW.capabilities, NEW.tags, NEW.description, NEW.long_description, NEW.protocols, NEW.categories,
       NEW.rating_lower_bound))
EXECUTE FUNCTION agent_search_update();
