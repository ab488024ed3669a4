// Creates (or recreates) a PostgreSQL database holding the throughput benchmark's generated agents, kept
// between runs, for measuring one change at a time without loading 100 000 agents each time.
//
//   npx tsx bench/keep-database.ts [--name bench_keep] [--agents 100000] [--seed 42]
//                                  [--postgres postgresql://postgres@127.0.0.1:5432/test]
//
// Then `npx tsx bench/query-latency.ts` measures each query against it.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { applyMigrations } from '../src/db/schema-engine.js';
import { loadAgents } from './load.js';
import { generateAgents, seededRandom } from './vocabulary.js';

const { values: args } = parseArgs({
  options: {
    name: { type: 'string', default: 'bench_keep' },
    agents: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '42' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(args.name)) {
  console.error('--name: lower-case letters, digits and _ only');
  process.exit(2);
}

const admin = new pg.Client({ connectionString: args.postgres });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${args.name} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${args.name}`);
await admin.end();

const url = new URL(args.postgres);
url.pathname = `/${args.name}`;
await applyMigrations(url.toString());
const agents = generateAgents(Number(args.agents), seededRandom(Number(args.seed)));
await loadAgents(url.toString(), agents, (done) => done % 20_000 === 0 && process.stderr.write(`loaded ${done}/${agents.length}\n`));
console.log(url.toString());
