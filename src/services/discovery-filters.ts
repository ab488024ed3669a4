// The filters Discover offers as chips: the capabilities, protocols and categories most used by agents of
// a status, each with how many agents have it. One statement; the registry's arrays are short.
import type { PrismaClient } from '../db/client.js';
import type { AgentStatus } from '../generated/prisma/client.js';

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

export async function discoveryFilters(prisma: PrismaClient, status: AgentStatus): Promise<DiscoveryFilters> {
  const rows = await prisma.$queryRaw<Array<{ kind: keyof DiscoveryFilters; value: string; count: bigint }>>`
    SELECT kind, value, count FROM (
      SELECT kind, value, count(*) AS count, row_number() OVER (PARTITION BY kind ORDER BY count(*) DESC, value) AS place
      FROM (
        SELECT 'capabilities' AS kind, unnest(capabilities) AS value FROM agents WHERE status = ${status}::"AgentStatus"
        UNION ALL SELECT 'protocols', unnest(protocols) FROM agents WHERE status = ${status}::"AgentStatus"
        UNION ALL SELECT 'categories', unnest(categories) FROM agents WHERE status = ${status}::"AgentStatus"
      ) used
      GROUP BY kind, value
    ) ranked
    WHERE place <= ${FILTERS_SHOWN}
    ORDER BY kind, place`;
  const filters: DiscoveryFilters = { capabilities: [], protocols: [], categories: [] };
  for (const row of rows) filters[row.kind].push({ value: row.value, count: Number(row.count) });
  return filters;
}
