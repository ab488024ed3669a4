// Searches with an outside engine but answers from the database when that engine is unreachable:
// discovery stays up while Typesense is down, with the default engine's results. Writes are not
// redirected: index updates wait in the job queue until the engine is back.
import type { Logger } from '../logger.js';
import type { SearchEngine } from './engine.js';

export function withSearchFallback(primary: SearchEngine, fallback: SearchEngine, logger: Logger): SearchEngine {
  return {
    name: primary.name,
    keepsIndex: primary.keepsIndex,
    async search(query) {
      try {
        return await primary.search(query);
      } catch (error) {
        logger.warn({ err: error, engine: primary.name }, 'search engine failed; answering from the database');
        return fallback.search(query);
      }
    },
    syncAgent: (agentId) => primary.syncAgent(agentId),
    reindex: () => primary.reindex(),
  };
}
