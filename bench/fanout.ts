// One task event fanned out to many graphql-ws subscribers of one service process. The service runs in
// production mode on a scratch PostgreSQL database with the per-user and per-address subscription caps
// raised; N subscribers (one WebSocket and one `taskUpdated` subscription each, all the requester's, in
// a few client processes) subscribe to one task; then one event at a time is fired and the time from
// the firing to each subscriber's receipt is recorded. A bare `ws` server that sends one prepared message
// to every subscription is measured in the same run with the same subscribers, and the service's
// figures are printed beside it and as ratios to it (the machine is shared; ratios drift less).
//
//   npm run bench:fanout -- [--subscribers 10000] [--rounds 5] [--clients 3] [--postgres URL] [--profile DIR]
//
// Rounds: the event is announced on the service's channel with pg_notify (what a task move on any
// process does after its commit), and the last round cancels the task through the API, so that one
// round includes the move itself. Memory per subscriber: the growth of the service's RSS and JS heap
// from before the subscribers connected to after, divided by N (the heap is not collected first).
import { fork, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { TASK_EVENTS_CHANNEL } from '../src/events/bus.js';
import { percentile } from './measure.js';
import { freePort, startService, stop, waitUntilUp } from './service.js';

const { values: args } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '5' },
    clients: { type: 'string', default: '3' },
    // Writes a V8 CPU profile of the service (node --cpu-prof) into this directory (bench/profile-summary.ts reads it).
    profile: { type: 'string' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const subscribers = Number(args.subscribers);
const rounds = Number(args.rounds);
const clientCount = Number(args.clients);
if (![subscribers, rounds, clientCount].every((n) => Number.isInteger(n) && n >= 1) || subscribers > 18_000) {
  console.error('usage: npm run bench:fanout -- [--subscribers N (1-18000)] [--rounds R] [--clients C] [--postgres URL]');
  process.exit(2);
}
const log = (message: string) => process.stderr.write(`${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.timeOrigin + performance.now();
const QUERY = 'subscription($id: ID!) { taskUpdated(id: $id) { id status updatedAt } }';

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.split(/\s+/)[1]) * 1024;
}

// The subscribers, split over client processes.
class Clients {
  private readonly children: ChildProcess[] = [];
  private constructor() {}

  static async open(opts: { url: string; authorization: string; variables: Record<string, unknown> }): Promise<Clients> {
    const clients = new Clients();
    const shares = Array.from({ length: clientCount }, (_, i) => Math.floor(subscribers / clientCount) + (i < subscribers % clientCount ? 1 : 0));
    await Promise.all(
      shares.map(async (count) => {
        const child = fork(path.join(import.meta.dirname, 'fanout-client.ts'), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
        clients.children.push(child);
        const answer = await clients.ask<{ opened?: number; failed?: string }>(child, { open: { ...opts, count, query: QUERY } });
        if (answer.failed) throw new Error(`a subscriber failed: ${answer.failed}`);
      }),
    );
    return clients;
  }

  private ask<T>(child: ChildProcess, message: unknown): Promise<T> {
    return new Promise((resolve) => {
      child.once('message', (answer) => resolve(answer as T));
      child.send(message as never);
    });
  }

  // Fires, then waits until every subscriber has received one message (or 30 s passed): latencies in ms.
  async round(fire: () => Promise<void> | void): Promise<{ latencies: number[]; missing: number }> {
    const firedAt = now();
    await fire();
    let arrivals: number[] = [];
    for (let waited = 0; arrivals.length < subscribers && waited < 30_000; waited += 50) {
      await sleep(50);
      const shares = await Promise.all(this.children.map((c) => this.ask<{ arrivals: number[] }>(c, { collect: true })));
      arrivals = arrivals.concat(...shares.map((s) => s.arrivals));
    }
    return { latencies: arrivals.map((at) => at - firedAt).sort((a, b) => a - b), missing: subscribers - arrivals.length };
  }

  async close(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            child.once('exit', () => resolve());
            child.send({ close: true });
          }),
      ),
    );
  }
}

interface Figures {
  p50: number;
  p99: number;
  max: number;
  missing: number;
  rssPerSubscriber: number;
  heapPerSubscriber: number;
  rounds: { by: string; p50: number; p99: number }[];
}

function summarize(results: { by: string; latencies: number[]; missing: number }[], memory: { rss: number; heap: number }): Figures {
  const all = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  return {
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    max: all.at(-1) ?? 0,
    missing: results.reduce((sum, r) => sum + r.missing, 0),
    rssPerSubscriber: memory.rss / subscribers,
    heapPerSubscriber: memory.heap / subscribers,
    rounds: results.map((r) => ({ by: r.by, p50: percentile(r.latencies, 50), p99: percentile(r.latencies, 99) })),
  };
}

async function measureService(postgresUrl: string): Promise<Figures> {
  const scratch = `bench_fanout_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${scratch}`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-fanout-'));
  let service: ChildProcess | null = null;
  let clients: Clients | null = null;
  const notifier = new pg.Client({ connectionString: Object.assign(new URL(postgresUrl), { pathname: `/${scratch}` }).toString() });
  try {
    const databaseUrl = Object.assign(new URL(postgresUrl), { pathname: `/${scratch}` }).toString();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const cap = String(subscribers + 100);
    const nodeArgs = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [];
    service = startService({ databaseUrl, dataDir, port, nodeArgs, env: { ALLOW_SIMULATED_PAYMENTS: 'true', PUBLIC_BASE_URL: base, SUBSCRIPTIONS_PER_USER: cap, SUBSCRIPTIONS_PER_ADDRESS: cap } });
    log('service on PostgreSQL: starting');
    await waitUntilUp(`${base}/readyz`, service);
    const cli = (cliArgs: string[]) =>
      JSON.parse(execFileSync(process.execPath, ['scripts/cli.mjs', ...cliArgs, '--json'], { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' })) as { apiKey: string };
    const requester = cli(['user', 'create', '--email', `requester-${scratch}@example.com`]);
    const headers = { authorization: `Bearer ${requester.apiKey}`, 'content-type': 'application/json' };
    // No agent offers this capability, so the task waits, pending, for the events the benchmark fires.
    const created = await fetch(`${base}/v1/tasks`, { method: 'POST', headers, body: JSON.stringify({ title: 'Fan-out', description: 'Watched by many', capabilities: ['bench-nobody'] }) });
    const task = ((await created.json()) as { data: { id: string; status: string } }).data;
    if (!created.ok) throw new Error(`POST /v1/tasks answered ${created.status}`);
    await notifier.connect();

    const before = { rss: rssBytes(service.pid!), heap: await serviceHeap(base) };
    log(`service: opening ${subscribers} subscribers in ${clientCount} client processes`);
    clients = await Clients.open({ url: `ws://127.0.0.1:${port}/graphql`, authorization: `Bearer ${requester.apiKey}`, variables: { id: task.id } });
    await sleep(500);
    const memory = { rss: rssBytes(service.pid!) - before.rss, heap: (await serviceHeap(base)) - before.heap };
    const event = JSON.stringify({ taskId: task.id, status: task.status, requesterId: (await requesterId(notifier, task.id)), agentOwnerId: null });
    const results = [];
    for (let r = 0; r < rounds; r++) {
      log(`service: round ${r + 1} of ${rounds + 1} (pg_notify)`);
      results.push({ by: 'pg_notify', ...(await clients.round(async () => void (await notifier.query('SELECT pg_notify($1, $2)', [TASK_EVENTS_CHANNEL, event])))) });
    }
    log(`service: round ${rounds + 1} of ${rounds + 1} (POST /v1/tasks/:id/cancel)`);
    results.push({
      by: 'cancel via the API',
      ...(await clients.round(async () => {
        const res = await fetch(`${base}/v1/tasks/${task.id}/cancel`, { method: 'POST', headers });
        if (!res.ok) throw new Error(`cancel answered ${res.status}: ${await res.text()}`);
      })),
    });
    return summarize(results, memory);
  } finally {
    await clients?.close();
    if (service) await stop(service);
    await notifier.end().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await admin.end();
  }
}

async function requesterId(client: pg.Client, taskId: string): Promise<string> {
  return (await client.query<{ requester_id: string }>('SELECT requester_id FROM tasks WHERE id = $1', [taskId])).rows[0]!.requester_id;
}

async function serviceHeap(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('nodejs_heap_size_used_bytes '));
  return line ? Number(line.split(' ')[1]) : NaN;
}

async function measurePlain(): Promise<Figures> {
  const port = await freePort();
  const payload = JSON.stringify({ data: { taskUpdated: { id: 'tsk_0000000000000000', status: 'pending', updatedAt: new Date().toISOString() } } });
  const server = fork(path.join(import.meta.dirname, 'fanout-plain.ts'), { execArgv: ['--import', 'tsx'], stdio: 'inherit', env: { ...process.env, PORT: String(port), PAYLOAD: payload } });
  const ask = <T>(message: unknown) =>
    new Promise<T>((resolve) => {
      server.once('message', (answer) => resolve(answer as T));
      server.send(message as never);
    });
  let clients: Clients | null = null;
  try {
    await new Promise((resolve) => server.once('message', resolve));
    const before = { rss: rssBytes(server.pid!), heap: (await ask<{ heapUsed: number }>({ memory: true })).heapUsed };
    log(`plain ws: opening ${subscribers} subscribers`);
    clients = await Clients.open({ url: `ws://127.0.0.1:${port}/graphql`, authorization: '', variables: {} });
    await sleep(500);
    const memory = { rss: rssBytes(server.pid!) - before.rss, heap: (await ask<{ heapUsed: number }>({ memory: true })).heapUsed - before.heap };
    const results = [];
    for (let r = 0; r <= rounds; r++) {
      log(`plain ws: round ${r + 1} of ${rounds + 1}`);
      results.push({ by: 'broadcast', ...(await clients.round(() => void server.send({ fire: true }))) });
    }
    return summarize(results, memory);
  } finally {
    await clients?.close();
    server.disconnect();
    await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve(null)));
  }
}

async function main() {
  const service = await measureService(args.postgres!);
  const plain = await measurePlain();
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log(`\nOne task event to ${subscribers} graphql-ws subscribers (one socket each, ${clientCount} client processes), ${rounds + 1} rounds each\n`);
  console.log('| server | p50 ms | p99 ms | max ms | not received | RSS KiB/subscriber | heap KiB/subscriber |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, f] of [['service (PostgreSQL)', service], ['plain ws broadcast', plain]] as const) {
    console.log(`| ${name} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.max.toFixed(1)} | ${f.missing} | ${kb(f.rssPerSubscriber)} | ${kb(f.heapPerSubscriber)} |`);
  }
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  console.log(`| **ratio service / plain** | ${ratio(service.p50, plain.p50)} | ${ratio(service.p99, plain.p99)} | ${ratio(service.max, plain.max)} | | ${ratio(service.rssPerSubscriber, plain.rssPerSubscriber)} | ${ratio(service.heapPerSubscriber, plain.heapPerSubscriber)} |`);
  console.log('\nservice rounds: ' + service.rounds.map((r) => `${r.by} p50 ${r.p50.toFixed(1)} / p99 ${r.p99.toFixed(1)} ms`).join('; '));
  console.log('plain rounds: ' + plain.rounds.map((r) => `p50 ${r.p50.toFixed(1)} / p99 ${r.p99.toFixed(1)} ms`).join('; '));
  if (service.missing || plain.missing) process.exitCode = 1;
}

await main();
