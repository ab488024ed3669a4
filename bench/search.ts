// Search benchmark: builds a registry of N agents from a realistic vocabulary and a set of typo'd queries,
// each looking for one agent, then measures recall@5, MRR@10 and latency of each engine:
//   - postgres engine on the embedded PGlite (in memory)
//   - postgres engine on a PostgreSQL server (a scratch database, dropped afterwards)
//   - typesense, when TYPESENSE_URL and TYPESENSE_API_KEY are set
//
//   npm run bench:search -- [--agents 100000] [--queries 500] [--seed 42]
//                           [--postgres postgresql://postgres@127.0.0.1:5432/test] [--skip pglite,postgresql,typesense]
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createPrismaClient } from '../src/db/client.js';
import { startEmbeddedDatabase } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { createLogger } from '../src/logger.js';
import { createPostgresSearchEngine } from '../src/search/postgres/engine.js';
import { createTypesenseClient, createTypesenseSearchEngine } from '../src/search/typesense/engine.js';
import type { SearchEngine } from '../src/search/engine.js';
import { loadAgents } from './load.js';
import { measure, type Measurement } from './measure.js';
import { generateQueries, type BenchQuery } from './queries.js';
import { generateAgents, seededRandom, type BenchAgent } from './vocabulary.js';

const { values: args } = parseArgs({
  options: {
    agents: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '500' },
    seed: { type: 'string', default: '42' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
    skip: { type: 'string', default: '' },
  },
});
const agentCount = Number(args.agents);
const queryCount = Number(args.queries);
if (!Number.isInteger(agentCount) || agentCount < 100 || !Number.isInteger(queryCount) || queryCount < 1) {
  console.error('usage: npm run bench:search -- [--agents N (at least 100)] [--queries Q] [--seed S] [--postgres URL] [--skip LIST]');
  process.exit(2);
}
const skip = new Set(args.skip.split(',').filter(Boolean));

interface Row {
  target: string;
  loadSeconds: number | null;
  result: Measurement | null;
  note?: string;
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const log = (message: string) => process.stderr.write(`${message}\n`);

async function benchPostgresEngine(target: string, url: string, agents: BenchAgent[], queries: BenchQuery[]): Promise<Row & { prisma: ReturnType<typeof createPrismaClient> }> {
  await applyMigrations(url);
  const loadStart = performance.now();
  await loadAgents(url, agents, (done) => log(`  ${target}: loaded ${done}/${agents.length}`));
  const loadSeconds = seconds(loadStart);
  const prisma = createPrismaClient(url, 2);
  log(`  ${target}: querying`);
  const result = await measure(createPostgresSearchEngine(prisma), queries);
  return { target, loadSeconds, result, prisma };
}

async function benchTypesense(prisma: ReturnType<typeof createPrismaClient>, queries: BenchQuery[]): Promise<Row> {
  const url = process.env.TYPESENSE_URL!;
  const apiKey = process.env.TYPESENSE_API_KEY!;
  const alias = `bench_agents_${randomBytes(4).toString('hex')}`;
  const client = createTypesenseClient({ url, apiKey, collection: alias });
  const engine: SearchEngine = createTypesenseSearchEngine({ prisma, logger: createLogger('silent'), client, alias });
  try {
    const loadStart = performance.now();
    log('  typesense: indexing');
    await engine.reindex();
    const loadSeconds = seconds(loadStart);
    log('  typesense: querying');
    return { target: 'typesense', loadSeconds, result: await measure(engine, queries) };
  } finally {
    const target = await client.aliases(alias).retrieve().catch(() => null);
    await client.aliases(alias).delete().catch(() => {});
    if (target) await client.collections(target.collection_name).delete().catch(() => {});
  }
}

async function main() {
  const random = seededRandom(Number(args.seed));
  const agents = generateAgents(agentCount, random);
  const queries = generateQueries(agents, queryCount, random);
  log(`${agents.length} agents, ${queries.length} queries (e.g. ${queries.slice(0, 4).map((q) => `"${q.q}"`).join(', ')})`);
  const rows: Row[] = [];
  const typesenseWanted = Boolean(process.env.TYPESENSE_URL && process.env.TYPESENSE_API_KEY) && !skip.has('typesense');
  let typesenseDone = false;

  if (!skip.has('pglite')) {
    log('postgres engine on PGlite');
    const db = await startEmbeddedDatabase({ dataDir: null });
    try {
      const row = await benchPostgresEngine('postgres on PGlite', db.url, agents, queries);
      rows.push(row);
      await row.prisma.$disconnect();
    } finally {
      await db.close();
    }
  }

  if (!skip.has('postgresql')) {
    log('postgres engine on PostgreSQL');
    const server = new URL(args.postgres);
    const scratch = `bench_search_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server.toString() });
    try {
      await admin.connect();
      await admin.query(`CREATE DATABASE ${scratch}`);
      const url = new URL(server);
      url.pathname = `/${scratch}`;
      try {
        const row = await benchPostgresEngine('postgres on PostgreSQL', url.toString(), agents, queries);
        rows.push(row);
        if (typesenseWanted) {
          log('typesense');
          rows.push(await benchTypesense(row.prisma, queries));
          typesenseDone = true;
        }
        await row.prisma.$disconnect();
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
      }
    } catch (error) {
      rows.push({ target: 'postgres on PostgreSQL', loadSeconds: null, result: null, note: `skipped: ${(error as Error).message}` });
    } finally {
      await admin.end().catch(() => {});
    }
  }

  if (typesenseWanted && !typesenseDone) rows.push({ target: 'typesense', loadSeconds: null, result: null, note: 'skipped: needs the PostgreSQL run as its source' });
  if (!typesenseWanted) rows.push({ target: 'typesense', loadSeconds: null, result: null, note: 'not configured (TYPESENSE_URL, TYPESENSE_API_KEY)' });

  print(rows, agents.length, queries.length);
}

function print(rows: Row[], agents: number, queries: number) {
  const header = ['engine', 'agents', 'queries', 'load s', 'recall@5', 'MRR@10', 'p50 ms', 'p99 ms'];
  const table = rows.map((r) =>
    r.result
      ? [r.target, String(agents), String(queries), r.loadSeconds!.toFixed(1), r.result.recallAt5.toFixed(3), r.result.mrr.toFixed(3), r.result.p50Ms.toFixed(1), r.result.p99Ms.toFixed(1)]
      : [r.target, String(agents), String(queries), '-', '-', '-', '-', `(${r.note})`],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => (i === header.length - 1 && row[i]!.startsWith('(') ? 0 : row[i]!.length))));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of table) console.log(line(row));
  for (const r of rows.filter((row) => row.result)) {
    const kinds = Object.entries(r.result!.byKind).map(([k, v]) => `${k} ${v.recallAt5.toFixed(3)} (${v.queries})`).join(', ');
    console.log(`\n${r.target}: recall@5 by query kind: ${kinds}`);
    const misses = r.result!.misses.slice(0, 5).map((m) => `"${m.q}"`);
    if (misses.length) console.log(`  some misses: ${misses.join(', ')}`);
  }
}

await main();
