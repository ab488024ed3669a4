// What a discovery search asks for, checked once at the service boundary. Both engines receive the same
// parsed query, so defaults, limits and case rules live here and nowhere else.
import { z } from 'zod';

export const DISCOVERY_SORTS = ['relevance', 'rating', 'tasks', 'created', 'updated'] as const;
export type DiscoverySort = (typeof DISCOVERY_SORTS)[number];

export const AGENT_STATUSES = ['active', 'inactive', 'deprecated'] as const;
export type AgentStatusValue = (typeof AGENT_STATUSES)[number];

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
// Deep pages cost the engines a scan of everything before them; 10 000 pages of 100 is far past any use.
export const MAX_PAGE = 10_000;
export const MAX_QUERY_LENGTH = 200;
export const MAX_FILTER_VALUES = 20;

// Protocols, categories and capabilities are stored lower-cased, so filters are lower-cased to match.
const filterValues = z
  .array(z.string().trim().min(1, 'values must not be empty').max(64, 'values must be at most 64 characters'))
  .max(MAX_FILTER_VALUES, `at most ${MAX_FILTER_VALUES} values`)
  .transform((values) => [...new Set(values.map((v) => v.toLowerCase()))]);

export const discoveryQuerySchema = z.object({
  // A blank query is no query: everything that passes the filters, in the chosen order.
  q: z
    .string()
    .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`)
    .nullish()
    .transform((q) => (q?.trim() ? q.trim() : null)),
  protocols: filterValues.nullish().transform((v) => v ?? []),
  categories: filterValues.nullish().transform((v) => v ?? []),
  capabilities: filterValues.nullish().transform((v) => v ?? []),
  // Without a status only active agents are listed.
  status: z.enum(AGENT_STATUSES).nullish().transform((s) => s ?? 'active'),
  page: z.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_PAGE, `must be at most ${MAX_PAGE}`).nullish().transform((p) => p ?? 1),
  perPage: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_PER_PAGE, `must be at most ${MAX_PER_PAGE}`)
    .nullish()
    .transform((p) => p ?? DEFAULT_PER_PAGE),
  sort: z.enum(DISCOVERY_SORTS).nullish().transform((s) => s ?? 'relevance'),
});

export type DiscoveryQueryInput = z.input<typeof discoveryQuerySchema>;
export type DiscoveryQuery = z.output<typeof discoveryQuerySchema>;

export function totalPages(total: number, perPage: number): number {
  return Math.ceil(total / perPage);
}
