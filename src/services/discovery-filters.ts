// The filters Discover offers as chips: the capabilities, protocols and categories most used by agents of
// a status, each with how many agents have it (stores/agent-store.ts filterCounts).
import type { SqlDb } from '../db/kysely.js';
import type { AgentStatus } from '../generated/prisma/client.js';
import { filterCounts } from '../stores/agent-store.js';

export interface FilterCount {
  value: string;
  count: number;
}

export interface DiscoveryFilters {
  capabilities: FilterCount[];
  protocols: FilterCount[];
  categories: FilterCount[];
}

export const FILTERS_SHOWN = 12;

export async function discoveryFilters(db: SqlDb, status: AgentStatus): Promise<DiscoveryFilters> {
  const filters: DiscoveryFilters = { capabilities: [], protocols: [], categories: [] };
  for (const row of await filterCounts(db, status, FILTERS_SHOWN)) filters[row.kind].push({ value: row.value, count: row.count });
  return filters;
}
