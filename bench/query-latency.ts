// Each throughput-benchmark query's own latency through the postgres engine, in this process, against a
// database made by bench/keep-database.ts: every query once to warm up, then the best of three rounds per
// query (the least disturbed by the machine's other work). Prints the total, percentiles and the slowest.
//
//   npx tsx bench/query-latency.ts [--database postgresql://postgres@127.0.0.1:5432/bench_keep]
//                                  [--agents 100000] [--seed 42] [--slowest 20]
//
// --agents and --seed must be those the database was made with: the queries are generated from the
// same agents.
import { parseArgs } from 'node:util';
import { createKysely } from '../src/db/kysely.js';
import { createPostgresSearchEngine } from '../src/search/postgres/engine.js';
import { discoveryQuerySchema } from '../src/search/query.js';
import { percentile } from './measure.js';
import { throughputQueries } from './queries.js';
import { generateAgents, seededRandom } from './vocabulary.js';

const { values: args } = parseArgs({
  options: {
    database: { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/bench_keep' },
    agents: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '42' },
    slowest: { type: 'string', default: '20' },
  },
});

const random = seededRandom(Number(args.seed));
const agents = generateAgents(Number(args.agents), random);
// The queries of bench:search:http, each once.
const queries = [...new Set(throughputQueries(agents, random).map((q) => q.q))];
const sql = createKysely(args.database, 2, { preparedStatements: true, server: true, genericPlans: true });
const engine = createPostgresSearchEngine(sql);
const search = (q: string) => engine.search(discoveryQuerySchema.parse({ q, perPage: 10 }));

for (const q of queries) await search(q);
const best = new Map<string, number>();
for (let round = 0; round < 3; round++) {
  for (const q of queries) {
    const started = performance.now();
    await search(q);
    const ms = performance.now() - started;
    best.set(q, Math.min(best.get(q) ?? Infinity, ms));
  }
}
await sql.destroy();

const sorted = [...best.values()].sort((a, b) => a - b);
const total = sorted.reduce((sum, ms) => sum + ms, 0);
console.log(`${queries.length} queries, best of 3: total ${total.toFixed(0)} ms, p50 ${percentile(sorted, 50).toFixed(2)} ms, p90 ${percentile(sorted, 90).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`);
for (const [q, ms] of [...best].sort((a, b) => b[1] - a[1]).slice(0, Number(args.slowest))) console.log(`${ms.toFixed(1).padStart(7)} ms  ${q}`);
