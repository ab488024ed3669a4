// The search port: what discovery needs from a search engine. Engines answer with agent ids in order;
// the agents themselves are always read from the database, so a result never shows stale fields.
import type { Agent } from '../generated/prisma/client.js';
import type { DiscoveryQuery } from './query.js';

export interface SearchHits {
  ids: string[];
  // Every agent that matches the query and filters, not only this page.
  total: number;
  // The page's agents, in the order of ids, when the engine read them from the database in the search
  // itself (the postgres engine): discovery then needs no second round trip.
  agents?: Agent[];
}

export interface SearchEngine {
  readonly name: 'postgres' | 'typesense';
  // True when the engine keeps its own copy of the agents, which agent changes must reach (search.sync jobs).
  readonly keepsIndex: boolean;
  search(query: DiscoveryQuery): Promise<SearchHits>;
  // Brings one agent's entry up to date with the database: written when it exists, removed when it does not.
  syncAgent(agentId: string): Promise<void>;
  // Rebuilds the whole index from the database.
  reindex(): Promise<{ indexed: number }>;
}
