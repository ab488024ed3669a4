// Public discovery: search over the agents through the configured search engine, and one agent by slug
// or id. Results are always read from the database in the order the engine ranked them (by the postgres
// engine in the search query itself; for an outside engine, here).
import type { Deps } from '../deps.js';
import type { Agent } from '../generated/prisma/client.js';
import { notFound } from '../errors.js';
import type { SearchEngine } from '../search/engine.js';
import { totalPages, type DiscoveryQuery } from '../search/query.js';
import { enqueue } from '../stores/job-store.js';
import { agentById, agentBySlug, agentsByIds } from '../stores/agent-store.js';
import { searchSync } from '../jobs/specs/search-sync.js';

export interface DiscoveryPage {
  data: Agent[];
  total: number;
  page: number;
  perPage: number;
  totalPages: number;
}

export function discoveryService(deps: Deps, engine: SearchEngine) {
  return {
    engine,

    // `query` was checked and given its defaults by discoveryQuerySchema on the GraphQL arguments.
    async search(query: DiscoveryQuery): Promise<DiscoveryPage> {
      const hits = await engine.search(query);
      if (hits.agents) return { data: hits.agents, total: hits.total, page: query.page, perPage: query.perPage, totalPages: totalPages(hits.total, query.perPage) };
      const rows = await agentsByIds(deps.sql, hits.ids);
      const byId = new Map(rows.map((a) => [a.id, a]));
      // An agent deleted between search and read is left out rather than failing the page.
      const data = hits.ids.map((id) => byId.get(id)).filter((a): a is Agent => a !== undefined);
      return { data, total: hits.total, page: query.page, perPage: query.perPage, totalPages: totalPages(hits.total, query.perPage) };
    },

    // Slug first, then a slug the agent had before a rename, then id: a slug can never look like an id
    // (ids carry a prefix and underscore).
    async detail(slugOrId: string): Promise<Agent> {
      const slug = slugOrId.toLowerCase();
      const agent =
(await agentBySlug(deps.sql, slug)) ?? (await agentById(deps.sql, slugOrId));
      if (!agent) throw notFound('agent');
      return agent;
    },

    // From the agent.changed job: engines with their own index get a sync job of their own, so that an
    // unreachable engine delays only the index, never the other work that follows an agent change.
    async agentChanged(agentId: string): Promise<void> {
      if (engine.keepsIndex) await enqueue(deps.sql, searchSync, { agentId });
    },

    syncIndex: (agentId: string) => engine.syncAgent(agentId),
    reindex: () => engine.reindex(),
  };
}

export type DiscoveryService = ReturnType<typeof discoveryService>;
