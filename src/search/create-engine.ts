// Chooses the search engine from the configuration: Typesense when TYPESENSE_URL and TYPESENSE_API_KEY
// are set (config.ts requires both or neither), otherwise PostgreSQL, which needs nothing else.
import type { Config } from '../config.js';
import type { Clock } from '../deps.js';
import type { EventBus } from '../events/bus.js';
import type { Sql } from '../db/kysely.js';
import type { Logger } from '../logger.js';
import type { SearchEngine } from './engine.js';
import { withSearchFallback } from './fallback.js';
import { createPostgresSearchEngine } from './postgres/engine.js';
import { withResultCache } from './result-cache.js';
import { createTypesenseClient, createTypesenseSearchEngine } from './typesense/engine.js';

export function createSearchEngine(deps: {
  config: Config;
  sql: Sql;
  searchSql: Sql;
  logger: Logger;
  clock: Clock;
  events: Pick<EventBus, 'watchSearchChanges'>;
}): SearchEngine {
  const postgres = createPostgresSearchEngine(deps.searchSql);
  const { url, apiKey, collection } = deps.config.typesense;
  // Only results the database answers are kept: the announcement of a write reaches this process when
  // the write commits, while Typesense's index follows later through jobs.
  if (!url || !apiKey) {
    return withResultCache(postgres, { ...deps.config.searchCache, clock: deps.clock, watch: (listener) => deps.events.watchSearchChanges(listener) });
  }
  const typesense = createTypesenseSearchEngine({
    sql: deps.sql,
    logger: deps.logger,
    client: createTypesenseClient({ url, apiKey, collection }),
    alias: collection,
  });
  return withSearchFallback(typesense, postgres, deps.logger);
}
