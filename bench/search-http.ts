// Search throughput over HTTP: the service (a child process, on a scratch PostgreSQL database holding N
// generated agents) answers GET /v1/discover?q=… from several keep-alive clients for a fixed time; a plain
// node:http server answering a fixed JSON body is measured the same way in the same run, and the
// service's rate is printed as a ratio to it. Absolute figures depend on the machine; the ratio much less.
//
//   npm run bench:search:http -- [--agents 100000] [--seconds 20] [--connections 8] [--seed 42]
//                                [--postgres postgresql://postgres@127.0.0.1:5432/test] [--profile DIR]
//                                [--database URL] [--writes N] [--write-kind figures|content]
//
// --database: a database made by bench/keep-database.ts (with the same --agents and --seed) instead of a
// scratch one, so that runs compared back to back do not each spend minutes loading the agents.
//
// --writes N: while the service is measured, N agent writes a second go to the database alongside: with
// --write-kind figures (the default) what a finished task writes to its agent (counts, trust), with
// content a change of what a search shows (the agent's version), which ends every cached result.
//
// Then the service once more at half the rate it reached, with requests sent on a schedule (open loop):
// the latency a deployment sized for twice its traffic would see; and last with one client, each search
// alone on the machine: its own latency, without any queue.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { applyMigrations } from '../src/db/schema-engine.js';
import { loadAgents } from './load.js';
import { drive, driveAtRate, type Load } from './http-load.js';
import { freePort, startPlainServer, startService, stop, waitUntilUp } from './service.js';
import { throughputQueries } from './queries.js';
import { generateAgents, seededRandom } from './vocabulary.js';

const { values: args } = parseArgs({
  options: {
    agents: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '8' },
    seed: { type: 'string', default: '42' },
    // Writes a V8 CPU profile of the service (node --cpu-prof) into this directory.
    profile: { type: 'string' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
    database: { type: 'string' },
    writes: { type: 'string', default: '0' },
    'write-kind': { type: 'string', default: 'figures' },
  },
});
const agentCount = Number(args.agents);
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const writesPerSecond = Number(args.writes);
if (![agentCount, seconds, connections].every((n) => Number.isInteger(n) && n > 0) || seconds > 300 || !(writesPerSecond >= 0 && writesPerSecond <= 1000) || !['figures', 'content'].includes(args['write-kind']!)) {
  console.error('usage: npm run bench:search:http -- [--agents N] [--seconds S (at most 300)] [--connections C] [--seed S] [--postgres URL] [--writes N (0-1000)] [--write-kind figures|content]');
  process.exit(2);
}
const log = (message: string) => process.stderr.write(`${message}\n`);

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// Writes to random agents at a steady rate until stopped; returns how many it made.
async function startWrites(url: string, perSecond: number, kind: string): Promise<() => Promise<number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const ids = (await client.query<{ id: string }>('SELECT id FROM agents ORDER BY random() LIMIT 1000')).rows.map((r) => r.id);
  const statement =
    kind === 'figures'
      ? `UPDATE agents SET completed_count = completed_count + 1, trust_score = random(), success_lower_bound = random(), updated_at = now() WHERE id = $1`
      : `UPDATE agents SET version = 'v' || floor(random() * 1000)::int, updated_at = now() WHERE id = $1`;
  let made = 0;
  let running = true;
  const loop = (async () => {
    const started = performance.now();
    while (running) {
      await client.query(statement, [ids[made % ids.length]]);
      made++;
      const wait = started + (made * 1000) / perSecond - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  })();
  return async () => {
    running = false;
    await loop;
    await client.end();
    return made;
  };
}

async function main() {
  const random = seededRandom(Number(args.seed));
  const agents = generateAgents(agentCount, random);
  const queries = throughputQueries(agents, random);
  // In a seeded random order: the queries come grouped by kind, and sent in that order the broad kinds
  // (capabilities, synonyms, sentences) arrived as one run of 180 at a time, a burst no real traffic
  // resembles, which overloaded the service for a second in every cycle.
  const paths = shuffled(queries, random).map((q) => `/v1/discover?q=${encodeURIComponent(q.q)}&per_page=10`);
  const durationMs = seconds * 1000;

  const server = new URL(args.postgres);
  const scratch = args.database ? null : `bench_http_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  if (scratch) await admin.query(`CREATE DATABASE ${scratch}`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-http-'));
  const children: ChildProcess[] = [];
  try {
    const url = new URL(args.database ?? server);
    if (scratch) {
      url.pathname = `/${scratch}`;
      await applyMigrations(url.toString());
      await loadAgents(url.toString(), agents, (done) => log(`loaded ${done}/${agents.length}`));
    }

    const plainPort = await freePort();
    const plain = startPlainServer(plainPort);
    children.push(plain);
    await waitUntilUp(`http://127.0.0.1:${plainPort}/`, plain);
    log(`plain node:http: ${seconds} s with ${connections} connections`);
    await drive(`http://127.0.0.1:${plainPort}`, ['/'], 2000, connections);
    const baseline = await drive(`http://127.0.0.1:${plainPort}`, ['/'], durationMs, connections);
    await stop(plain);

    const port = await freePort();
    const profile = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [];
    const service = startService({ databaseUrl: url.toString(), dataDir, port, nodeArgs: profile });
    children.push(service);
    await waitUntilUp(`http://127.0.0.1:${port}/readyz`, service);
    const base = `http://127.0.0.1:${port}`;
    const check = await fetch(`${base}${paths[0]}`);
    if (!check.ok) throw new Error(`search answered ${check.status}: ${await check.text()}`);
    log(`service: one pass over ${paths.length} distinct queries (plans not yet cached), then ${seconds} s with ${connections} connections`);
    const stopWrites = writesPerSecond > 0 ? await startWrites(url.toString(), writesPerSecond, args['write-kind']!) : null;
    const firstPass = await drive(base, paths, Math.min(durationMs, 10_000), connections);
    const search = await drive(base, paths, durationMs, connections);
    const halfRate = Math.max(1, Math.round(search.perSecond / 2));
    log(`service: ${seconds} s at ${halfRate} requests/s (half its full rate), open loop`);
    const halfLoad = await driveAtRate(base, paths, halfRate, durationMs);
    const writesMade = stopWrites ? await stopWrites() : 0;
    log(`service: ${seconds} s with one client (each search alone: no queue)`);
    const alone = await drive(base, paths, durationMs, 1);

    const row = (name: string, l: Load) =>
      `| ${name.padEnd(50)} | ${String(l.requests).padStart(8)} | ${l.perSecond.toFixed(0).padStart(8)} | ${l.p50Ms.toFixed(1).padStart(6)} | ${l.p99Ms.toFixed(1).padStart(6)} | ${String(l.errors).padStart(6)} |`;
    const writes = writesPerSecond > 0 ? `, ${writesPerSecond} agent writes/s of ${args['write-kind']} alongside (${writesMade} made)` : '';
    console.log(`${agents.length} agents on PostgreSQL, ${connections} keep-alive connections, ${seconds} s per run, ${paths.length} distinct queries${writes}\n`);
    console.log(`| ${'target'.padEnd(50)} | requests | per s    | p50 ms | p99 ms | errors |`);
    console.log(`|${'-'.repeat(52)}|----------|----------|--------|--------|--------|`);
    console.log(row('plain node:http (baseline)', baseline));
    console.log(row('GET /v1/discover, first pass (plans uncached)', firstPass));
    console.log(row('GET /v1/discover', search));
    console.log(row(`GET /v1/discover at ${halfRate}/s (half load, open loop)`, halfLoad));
    console.log(row('GET /v1/discover, one client', alone));
    console.log(`\nservice / plain node:http: ${(search.perSecond / baseline.perSecond).toFixed(4)}x (first pass ${(firstPass.perSecond / baseline.perSecond).toFixed(4)}x)`);
  } finally {
    for (const child of children) await stop(child);
    await rm(dataDir, { recursive: true, force: true });
    if (scratch) await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
