// Where a search's CPU time goes: starts the service on a database made by bench/keep-database.ts, drives
// GET /v1/discover from keep-alive clients like bench:search:http, and reads from /proc (Linux) the CPU
// time of the service process, of every PostgreSQL process and of this client around the measured run,
// printed per request. The machine's other work adds noise: compare runs made one after the other.
//
//   npx tsx bench/cpu-per-search.ts [--database postgresql://postgres@127.0.0.1:5432/bench_keep]
//                                   [--seconds 10] [--connections 8] [--agents 100000] [--seed 42]
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { drive } from './http-load.js';
import { freePort, startService, stop, waitUntilUp } from './service.js';
import { throughputQueries } from './queries.js';
import { generateAgents, seededRandom } from './vocabulary.js';

const { values: args } = parseArgs({
  options: {
    database: { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/bench_keep' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '8' },
    agents: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '42' },
  },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);
if (![seconds, connections].every((n) => Number.isInteger(n) && n > 0) || seconds > 300) {
  console.error('usage: npx tsx bench/cpu-per-search.ts [--database URL] [--seconds S (at most 300)] [--connections C]');
  process.exit(2);
}

// user + system time of a process, in clock ticks (1/100 s on Linux); 0 once it has gone.
async function cpuTicks(pid: number | string): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return 0;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function postgresTicks(): Promise<number> {
  let total = 0;
  for (const pid of (await readdir('/proc')).filter((d) => /^\d+$/.test(d))) {
    const name = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
    if (name.startsWith('postgres')) total += await cpuTicks(pid);
  }
  return total;
}

const random = seededRandom(Number(args.seed));
const queries = throughputQueries(generateAgents(Number(args.agents), random), random);
const paths = queries.map((q) => `/v1/discover?q=${encodeURIComponent(q.q)}&per_page=10`);
const dataDir = await mkdtemp(path.join(tmpdir(), 'cpu-per-search-'));
const port = await freePort();
const service = startService({ databaseUrl: args.database, dataDir, port });
const base = `http://127.0.0.1:${port}`;
const cpuTime = async () => ({ service: await cpuTicks(service.pid!), postgres: await postgresTicks(), client: await cpuTicks(process.pid) });
try {
  await waitUntilUp(`${base}/readyz`, service);
  await drive(base, paths, Math.min(8000, seconds * 1000), connections);
  const before = await cpuTime();
  const load = await drive(base, paths, seconds * 1000, connections);
  const after = await cpuTime();
  const perRequest = (name: keyof typeof before) => (((after[name] - before[name]) * 10) / load.requests).toFixed(2);
  console.log(
    `${load.requests} requests, ${load.perSecond.toFixed(0)}/s, p50 ${load.p50Ms.toFixed(1)} ms, p99 ${load.p99Ms.toFixed(1)} ms, ${load.errors} errors; ` +
      `CPU ms per request: service ${perRequest('service')}, PostgreSQL ${perRequest('postgres')}, this client ${perRequest('client')}`,
  );
} finally {
  await stop(service);
  await rm(dataDir, { recursive: true, force: true });
}
