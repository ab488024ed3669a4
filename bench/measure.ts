// Runs the query set against one engine and reduces it to recall@5, MRR@10 and latency percentiles.
import type { SearchEngine } from '../src/search/engine.js';
import { discoveryQuerySchema } from '../src/search/query.js';
import type { BenchQuery } from './queries.js';

export interface Measurement {
  queries: number;
  recallAt5: number;
  mrr: number;
  p50Ms: number;
  p99Ms: number;
  byKind: Record<string, { queries: number; recallAt5: number }>;
  misses: BenchQuery[];
}

const WARM_UP = 20;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function measure(engine: SearchEngine, queries: BenchQuery[]): Promise<Measurement> {
  const search = (q: string) => engine.search(discoveryQuerySchema.parse({ q, perPage: 10 }));
  for (const query of queries.slice(0, WARM_UP)) await search(query.q);

  const latencies: number[] = [];
  let found5 = 0;
  let reciprocal = 0;
  const byKind: Record<string, { queries: number; hits: number }> = {};
  const misses: BenchQuery[] = [];
  for (const query of queries) {
    const started = performance.now();
    const { ids } = await search(query.q);
    latencies.push(performance.now() - started);
    const rank = ids.indexOf(query.targetId);
    const kind = (byKind[query.kind] ??= { queries: 0, hits: 0 });
    kind.queries++;
    if (rank >= 0 && rank < 5) {
      found5++;
      kind.hits++;
    } else {
      misses.push(query);
    }
    if (rank >= 0) reciprocal += 1 / (rank + 1);
  }
  latencies.sort((a, b) => a - b);
  return {
    queries: queries.length,
    recallAt5: found5 / queries.length,
    mrr: reciprocal / queries.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    byKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, { queries: v.queries, recallAt5: v.hits / v.queries }])),
    misses,
  };
}
