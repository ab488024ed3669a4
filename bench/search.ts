// Search quality benchmark: one generated registry and one set of labelled queries (seeded, so every run
// builds the same), answered by the project's postgres engine and by its peers, minisearch and Orama,
// configured as bench/peers.ts says. Prints R@1, R@5 and MRR@10 per query kind for each, whether the
// project is at least as good as the best peer on each kind, latency, and where the project's time goes.
//
//   npm run bench:search -- [--agents 20000] [--per-kind 40] [--seed 42] [--on postgresql,pglite]
//                           [--postgres postgresql://postgres@127.0.0.1:5432/test]
// TYPESENSE_URL and TYPESENSE_API_KEY add a Typesense column (indexed from the PostgreSQL run).
import { createKysely } from '../src/db/kysely.js';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEmbeddedDatabase } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { createLogger } from '../src/logger.js';
import { createPostgresSearchEngine } from '../src/search/postgres/engine.js';
import { QueryPlanner } from '../src/search/postgres/query-plan.js';
import { loadCorrectionIndex } from '../src/search/postgres/vocabulary.js';
import { discoveryQuerySchema } from '../src/search/query.js';
import type { SearchEngine } from '../src/search/engine.js';
import { createTypesenseClient, createTypesenseSearchEngine } from '../src/search/typesense/engine.js';
import { loadAgents } from './load.js';
import { measure, percentile, type BenchEngine, type Measurement } from './measure.js';
import { miniSearchEngine, oramaEngine } from './peers.js';
import { generateQueries, QUERY_KINDS, type BenchQuery } from './queries.js';
import { generateAgents, seededRandom, type BenchAgent } from './vocabulary.js';

const { values: args } = parseArgs({
  options: {
    agents: { type: 'string', default: '20000' },
    'per-kind': { type: 'string', default: '40' },
    seed: { type: 'string', default: '42' },
    on: { type: 'string', default: 'postgresql' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const agentCount = Number(args.agents);
const perKind = Number(args['per-kind']);
const targets = new Set(args.on.split(',').filter(Boolean));
if (!Number.isInteger(agentCount) || agentCount < 100 || !Number.isInteger(perKind) || perKind < 1 || [...targets].some((t) => t !== 'postgresql' && t !== 'pglite')) {
  console.error('usage: npm run bench:search -- [--agents N (at least 100)] [--per-kind Q] [--seed S] [--on postgresql,pglite] [--postgres URL]');
  process.exit(2);
}

interface Column {
  name: string;
  peer: boolean;
  result: Measurement;
}

const log = (message: string) => process.stderr.write(`${message}\n`);
const elapsed = (since: number) => performance.now() - since;

const asBench = (name: string, engine: SearchEngine): BenchEngine => ({
  name,
  search: async (q) => (await engine.search(discoveryQuerySchema.parse({ q, perPage: 10 }))).ids,
});

// The project on one database: load, build the correction index, answer the queries; then split each
// query's time into planning (in process) and the database's part.
async function benchProject(name: string, url: string, agents: BenchAgent[], queries: BenchQuery[], columns: Column[], spans: string[]) {
  await applyMigrations(url);
  let started = performance.now();
  await loadAgents(url, agents, (done) => log(`  ${name}: loaded ${done}/${agents.length}`));
  const loadMs = elapsed(started);
  const sql = createKysely(url, 2);
  try {
    started = performance.now();
    const index = await loadCorrectionIndex(sql);
    const indexMs = elapsed(started);
    const planner = new QueryPlanner(index);
    const planTimes = queries.map((query) => {
      const t = performance.now();
      planner.plan(query.q);
      return elapsed(t);
    }).sort((a, b) => a - b);
    const engine = createPostgresSearchEngine(sql);
    log(`  ${name}: querying`);
    const result = await measure(asBench(name, engine), queries);
    columns.push({ name, peer: false, result });
    spans.push(
      `${name}: load ${(loadMs / 1000).toFixed(1)} s; correction index of ${index.size} words built in ${indexMs.toFixed(0)} ms; ` +
        `per query: planning (corrections, completions, synonyms; uncached) p50 ${percentile(planTimes, 50).toFixed(2)} ms, ` +
        `p99 ${percentile(planTimes, 99).toFixed(2)} ms; whole search p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms ` +
        `(the rest is the database query and its round trip)`,
    );
    if (process.env.TYPESENSE_URL && process.env.TYPESENSE_API_KEY && name.includes('PostgreSQL')) {
      columns.push({ name: 'typesense', peer: false, result: await benchTypesense(url, queries) });
    }
  } finally {
    await sql.destroy();
  }
}

async function benchTypesense(url: string, queries: BenchQuery[]): Promise<Measurement> {
  const sql = createKysely(url, 2);
  const alias = `bench_agents_${randomBytes(4).toString('hex')}`;
  const client = createTypesenseClient({ url: process.env.TYPESENSE_URL!, apiKey: process.env.TYPESENSE_API_KEY!, collection: alias });
  const engine = createTypesenseSearchEngine({ sql, logger: createLogger('silent'), client, alias });
  try {
    log('  typesense: indexing');
    await engine.reindex();
    return await measure(asBench('typesense', engine), queries);
  } finally {
    const target = await client.aliases(alias).retrieve().catch(() => null);
    await client.aliases(alias).delete().catch(() => {});
    if (target) await client.collections(target.collection_name).delete().catch(() => {});
    await sql.destroy();
  }
}

async function main() {
  const random = seededRandom(Number(args.seed));
  const agents = generateAgents(agentCount, random);
  const queries = generateQueries(agents, perKind, random);
  log(`${agents.length} agents, ${queries.length} queries (seed ${args.seed})`);
  const columns: Column[] = [];
  const spans: string[] = [];

  if (targets.has('postgresql')) {
    log('project on PostgreSQL');
    const server = new URL(args.postgres);
    const scratch = `bench_search_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${scratch}`);
    try {
      const url = new URL(server);
      url.pathname = `/${scratch}`;
      await benchProject('project (PostgreSQL)', url.toString(), agents, queries, columns, spans);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
      await admin.end();
    }
  }
  if (targets.has('pglite')) {
    log('project on PGlite');
    const db = await startEmbeddedDatabase({ dataDir: null });
    try {
      await benchProject('project (PGlite)', db.url, agents, queries, columns, spans);
    } finally {
      await db.close();
    }
  }
  for (const build of [() => Promise.resolve(miniSearchEngine(agents)), () => oramaEngine(agents)]) {
    const started = performance.now();
    const engine = await build();
    log(`${engine.name}: indexed in ${(elapsed(started) / 1000).toFixed(1)} s, querying`);
    columns.push({ name: engine.name, peer: true, result: await measure(engine, queries) });
  }
  print(columns, spans, agents.length, queries);
}

function print(columns: Column[], spans: string[], agents: number, queries: BenchQuery[]) {
  const cell = (n: number) => n.toFixed(2);
  const header = ['kind', 'n', ...columns.map((c) => `${c.name} R@1 / R@5 / MRR`), 'project vs best peer'];
  const project = columns.find((c) => !c.peer);
  const peers = columns.filter((c) => c.peer);
  let allGood = true;
  const rows = QUERY_KINDS.map((kind) => {
    let verdict = '-';
    if (project && peers.length) {
      const mine = project.result.byKind[kind];
      const best = (key: 'r1' | 'r5' | 'mrr') => Math.max(...peers.map((p) => p.result.byKind[kind][key]));
      const behind = (['r1', 'r5', 'mrr'] as const).filter((key) => mine[key] + 1e-9 < best(key));
      verdict = behind.length ? `behind on ${behind.join(', ')}` : 'at least as good';
      if (behind.length) allGood = false;
    }
    const counts = project?.result.byKind[kind].queries ?? queries.filter((q) => q.kind === kind).length;
    return [kind, String(counts), ...columns.map((c) => {
      const s = c.result.byKind[kind];
      return `${cell(s.r1)} / ${cell(s.r5)} / ${cell(s.mrr)}`;
    }), verdict];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`${agents} agents, ${queries.length} queries; nonsense counts as a hit when nothing is returned\n`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  console.log('');
  for (const c of columns) console.log(`${c.name}: p50 ${c.result.p50Ms.toFixed(2)} ms, p99 ${c.result.p99Ms.toFixed(2)} ms per query`);
  for (const span of spans) console.log(span);
  if (project && peers.length) console.log(`\n${allGood ? 'project is at least as good as the best peer on every kind' : 'project is behind a peer on some kind'}`);
  for (const c of columns.filter((col) => !col.peer)) {
    const misses = c.result.misses.slice(0, 12).map((m) => `${m.kind}: "${m.q}"`);
    if (misses.length) console.log(`\n${c.name}, some misses: ${misses.join('; ')}`);
  }
}

await main();
