// Search throughput over HTTP: the service (a child process, on a scratch PostgreSQL database holding N
// generated agents) answers GET /v1/discover?q=… from several keep-alive clients for a fixed time; a plain
// node:http server answering a fixed JSON body is measured the same way in the same run, and the
// service's rate is printed as a ratio to it. Absolute figures depend on the machine; the ratio much less.
//
//   npm run bench:search:http -- [--agents 100000] [--seconds 20] [--connections 8] [--seed 42]
//                                [--postgres postgresql://postgres@127.0.0.1:5432/test] [--profile DIR]
//
// Then the service once more at half the rate it reached, with requests sent on a schedule (open loop):
// the latency a deployment sized for twice its traffic would see; and last with one client, each search
// alone on the machine: its own latency, without any queue.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { applyMigrations } from '../src/db/schema-engine.js';
import { loadAgents } from './load.js';
import { percentile } from './measure.js';
import { freePort, startService, stop, waitUntilUp } from './service.js';
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
  },
});
const agentCount = Number(args.agents);
const seconds = Number(args.seconds);
const connections = Number(args.connections);
if (![agentCount, seconds, connections].every((n) => Number.isInteger(n) && n > 0) || seconds > 300) {
  console.error('usage: npm run bench:search:http -- [--agents N] [--seconds S (at most 300)] [--connections C] [--seed S] [--postgres URL]');
  process.exit(2);
}
const log = (message: string) => process.stderr.write(`${message}\n`);

interface Load {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

// GETs the URL and resolves with the status once the whole answer has arrived.
function statusOf(url: string, agent: http.Agent): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

// The figures of one run that began at `started` (performance.now()).
function loadOf(latencies: number[], errors: number, started: number): Load {
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, perSecond: latencies.length / elapsed, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), errors };
}

// Keep-alive clients, each sending its next request as soon as the last is answered.
async function drive(base: string, paths: string[], durationMs: number, clients = connections): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const get = (p: string) => statusOf(`${base}${p}`, agent);
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const p = paths[next++ % paths.length]!;
        const t = performance.now();
        const status = await get(p).catch(() => 0);
        latencies.push(performance.now() - t);
        if (status !== 200) errors++;
      }
    }),
  );
  agent.destroy();
  return loadOf(latencies, errors, started);
}

// Latency at a given load: requests go out on a fixed schedule whatever the answers (an open loop, as
// production traffic arrives), and each one's latency counts from when it was due, so a slow answer
// cannot hide the requests that should have followed it. At full load (drive above) latency is set by
// the queue: with C requests always in flight, the mean is C divided by the rate, whatever the search.
async function driveAtRate(base: string, paths: string[], perSecond: number, durationMs: number): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  let errors = 0;
  const get = (p: string) => statusOf(`${base}${p}`, agent);
  const count = Math.floor((perSecond * durationMs) / 1000);
  const started = performance.now();
  const answers: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    answers.push(
      get(paths[i % paths.length]!)
        .catch(() => 0)
        .then((status) => {
          latencies.push(performance.now() - due);
          if (status !== 200) errors++;
        }),
    );
  }
  await Promise.all(answers);
  agent.destroy();
  return loadOf(latencies, errors, started);
}

// The baseline: node:http and nothing else, in a process of its own like the service.
const PLAIN_SERVER = `
const http = require('node:http');
const body = JSON.stringify({ data: [], total: 0, page: 1, perPage: 20, totalPages: 0 });
http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); })
  .listen(Number(process.env.PORT), '127.0.0.1');
`;

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
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
  const scratch = `bench_http_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${scratch}`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-http-'));
  const children: ChildProcess[] = [];
  try {
    const url = new URL(server);
    url.pathname = `/${scratch}`;
    await applyMigrations(url.toString());
    await loadAgents(url.toString(), agents, (done) => log(`loaded ${done}/${agents.length}`));

    const plainPort = await freePort();
    const plain = spawn(process.execPath, ['-e', PLAIN_SERVER], { env: { ...process.env, PORT: String(plainPort) }, stdio: 'inherit' });
    children.push(plain);
    await waitUntilUp(`http://127.0.0.1:${plainPort}/`, plain);
    log(`plain node:http: ${seconds} s with ${connections} connections`);
    await drive(`http://127.0.0.1:${plainPort}`, ['/'], 2000);
    const baseline = await drive(`http://127.0.0.1:${plainPort}`, ['/'], durationMs);
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
    const firstPass = await drive(base, paths, Math.min(durationMs, 10_000));
    const search = await drive(base, paths, durationMs);
    const halfRate = Math.max(1, Math.round(search.perSecond / 2));
    log(`service: ${seconds} s at ${halfRate} requests/s (half its full rate), open loop`);
    const halfLoad = await driveAtRate(base, paths, halfRate, durationMs);
    log(`service: ${seconds} s with one client (each search alone: no queue)`);
    const alone = await drive(base, paths, durationMs, 1);

    const row = (name: string, l: Load) =>
      `| ${name.padEnd(50)} | ${String(l.requests).padStart(8)} | ${l.perSecond.toFixed(0).padStart(8)} | ${l.p50Ms.toFixed(1).padStart(6)} | ${l.p99Ms.toFixed(1).padStart(6)} | ${String(l.errors).padStart(6)} |`;
    console.log(`${agents.length} agents on PostgreSQL, ${connections} keep-alive connections, ${seconds} s per run, ${paths.length} distinct queries\n`);
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
    await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
