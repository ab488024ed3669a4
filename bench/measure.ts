// Runs the labelled queries against one engine and reduces the answers to R@1, R@5 and MRR@10 per query
// kind, and latency percentiles. A nonsense query scores 1 on every measure when it finds nothing, else 0.
import { QUERY_KINDS, type BenchQuery, type QueryKind } from './queries.js';

export interface BenchEngine {
  name: string;
  // Ids of the best 10 agents for the query, best first.
  search(q: string): Promise<string[]>;
}

export interface KindScore {
  queries: number;
  r1: number;
  r5: number;
  mrr: number;
}

export interface Measurement {
  byKind: Record<QueryKind, KindScore>;
  p50Ms: number;
  p99Ms: number;
  misses: BenchQuery[];
}

const WARM_UP = 20;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function measure(engine: BenchEngine, queries: BenchQuery[]): Promise<Measurement> {
  for (const query of queries.slice(0, WARM_UP)) await engine.search(query.q);
  const latencies: number[] = [];
  const sums = Object.fromEntries(QUERY_KINDS.map((k) => [k, { queries: 0, r1: 0, r5: 0, mrr: 0 }])) as Record<QueryKind, KindScore>;
  const misses: BenchQuery[] = [];
  for (const query of queries) {
    const started = performance.now();
    const ids = await engine.search(query.q);
    latencies.push(performance.now() - started);
    const score = sums[query.kind];
    score.queries++;
    if (query.relevant.size === 0) {
      const empty = ids.length === 0 ? 1 : 0;
      score.r1 += empty;
      score.r5 += empty;
      score.mrr += empty;
      if (!empty) misses.push(query);
      continue;
    }
    const rank = ids.slice(0, 10).findIndex((id) => query.relevant.has(id));
    if (rank === 0) score.r1++;
    if (rank >= 0 && rank < 5) score.r5++;
    else misses.push(query);
    if (rank >= 0) score.mrr += 1 / (rank + 1);
  }
  for (const score of Object.values(sums)) {
    if (score.queries === 0) continue;
    score.r1 /= score.queries;
    score.r5 /= score.queries;
    score.mrr /= score.queries;
  }
  latencies.sort((a, b) => a - b);
  return { byKind: sums, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), misses };
}
