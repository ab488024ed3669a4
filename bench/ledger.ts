// The cost ledger: the CPU per request of each layer a task's requests pass through, the layers added one
// at a time on the same server in one run, the service (bench/ledger/service.ts) beside the floor
// (bench/floor/server.ts), on one scratch PostgreSQL database, interleaved round by round.
//
//   npm run bench:ledger -- [--seconds 5] [--rounds 2] [--connections 8] [--postgres URL] [--profile DIR] [--node-args="FLAGS"]
//     [--allocations]
//
// --profile DIR writes a V8 CPU profile of the service process over the whole run into DIR
// (summarise it with bench/profile-summary.ts). --allocations samples what the service allocates in each of
// its phases (bench/ledger/allocations.ts) and prints, after the table, the last round's KB per request and
// where they come from; the profiler's own work is then in the CPU figures, so read those from a run without it.
//
// Each line is the process's CPU time (user + system, from /proc) over a closed loop of requests (or a
// drained queue of jobs) divided by their number, the medians of the rounds; the "adds" column is the
// difference to the line it builds on. A round, per implementation: the GET probes; tasks created for
// `seconds` through the service's create call directly, then through POST /v1/tasks, with the worker off;
// the worker started and the queue of their deliveries drained (the agent answers 200 and does not call
// back); the callbacks sent; the follow-up jobs still due drained; the worker stopped; then graphile-worker
// alone draining no-op jobs, and task events through the bus. The floor has no list, no GraphQL and no
// events; its lines are left empty.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { cpuSeconds } from './lifecycle-agent.js';
import { percentile } from './measure.js';
import { freePort, serviceEnv, stop, waitUntilUp } from './service.js';
import { registerAgent, scratchWorld } from './scratch.js';
import { V8_FLAGS } from '../scripts/v8-flags.mjs';
import type { AllocationSummary } from './ledger/allocations.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '8' },
    noop: { type: 'string', default: '500' },
    profile: { type: 'string' },
    allocations: { type: 'boolean', default: false },
    // V8 flags for the service process after its own (scripts/v8-flags.mjs), to compare: "--optimize-for-size".
    'node-args': { type: 'string' },
    // Some lines of the service only, no floor (to profile one layer): e.g. --only listRest or --only tasks.
    only: { type: 'string' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);
const connections = Number(args.connections);
const noopJobs = Number(args.noop);
if (![seconds, rounds, connections, noopJobs].every((n) => Number.isInteger(n) && n >= 1) || seconds > 120 || rounds > 10 || connections > 64) {
  console.error('usage: npm run bench:ledger -- [--seconds S (1-120)] [--rounds N (1-10)] [--connections N (1-64)] [--noop JOBS] [--postgres URL]');
  process.exit(2);
}
const only = args.only ? new Set(args.only.split(',')) : null;
const wanted = (line: string) => !only || only.has(line);
const log = (message: string) => process.stderr.write(`${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

// The agent: records each delivery's callback address and token, answers 200, and does not call back
// (the callbacks are a phase of their own).
function startRecordingAgent() {
  const deliveries: { callbackUrl: string; taskToken: string }[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (c: string) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text) as { callbackUrl: string; taskToken: string };
      deliveries.push({ callbackUrl: body.callbackUrl, taskToken: body.taskToken });
      res.writeHead(200).end();
    });
  });
  return { server, deliveries };
}

interface Sent {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  expect: number;
}

function send(agent: http.Agent, r: Sent): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers = { ...r.headers, ...(r.body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(r.body)) } : {}) };
    const req = http.request(r.url, { method: r.method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => (res.statusCode === r.expect ? resolve(text) : reject(new Error(`${r.method} ${r.url}: ${res.statusCode} ${text.slice(0, 300)}`))));
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

async function control(url: string): Promise<void> {
  const res = await fetch(url, { method: 'POST' });
  if (res.status !== 204) throw new Error(`${url}: ${res.status} ${await res.text()}`);
}

// CPU microseconds per request of `pid` over a closed loop: `connections` keep-alive clients sending
// `next()` requests until `seconds` have passed (or the requests run out).
// The length of a phase: `seconds`, shorter in the warm-up.
let phaseSeconds = seconds;
async function closedLoop(pid: number, next: () => Sent | null): Promise<{ us: number; count: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, timeout: 4000 });
  const deadline = performance.now() + phaseSeconds * 1000;
  let count = 0;
  const cpu0 = cpuSeconds([pid]);
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let r = next(); r && performance.now() < deadline; r = next()) {
        await send(agent, r);
        count++;
      }
    }),
  );
  const cpu = cpuSeconds([pid]) - cpu0;
  agent.destroy();
  return { us: count ? (cpu * 1e6) / count : NaN, count };
}

// CPU microseconds per job of `pid` while it drains a queue: from the start until `left()` is 0.
async function drain(pid: number, start: () => Promise<void>, left: () => Promise<number>, total: number): Promise<number> {
  const cpu0 = cpuSeconds([pid]);
  await start();
  for (let waited = 0; (await left()) > 0; waited += 20) {
    if (waited > 120_000) throw new Error('the queue did not drain in 120 s');
    await sleep(20);
  }
  return total ? ((cpuSeconds([pid]) - cpu0) * 1e6) / total : NaN;
}

type Line =
  | 'bare'
  | 'router'
  | 'auth'
  | 'listStore'
  | 'listRest'
  | 'createStore'
  | 'createRest'
  | 'delivery'
  | 'worker'
  | 'callback'
  | 'followUp'
  | 'event';

async function main() {
  const world = await scratchWorld(args.postgres!, 'ledger');
  const db = new pg.Client({ connectionString: world.databaseUrl });
  const children: ChildProcess[] = [];
  const agent = startRecordingAgent();
  try {
    await new Promise<void>((resolve) => agent.server.listen(0, '127.0.0.1', resolve));
    const agentUrl = `http://127.0.0.1:${(agent.server.address() as { port: number }).port}/tasks`;

    const servicePort = await freePort();
    const serviceBase = `http://127.0.0.1:${servicePort}`;
    const { dataDir, secretKey } = world;
    // The service's benchmark settings (bench/service.ts), in a process of its own.
    const profile = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [];
    // The service's V8 flags as scripts/start.mjs sets them; on the command line a later flag wins.
    const nodeArgs = [...V8_FLAGS, ...(args['node-args']?.split(' ').filter(Boolean) ?? [])];
    const service = spawn(process.execPath, [...nodeArgs, ...profile, '--import', 'tsx', 'bench/ledger/service.ts'], {
      env: {
        ...serviceEnv({ dataDir, port: servicePort }),
        DATABASE_URL: world.databaseUrl,
        SECRET_KEY: secretKey,
        ALLOW_PRIVATE_ENDPOINTS: 'true',
        PUBLIC_BASE_URL: serviceBase,
      },
      stdio: 'inherit',
    });
    children.push(service);
    log('service: starting');
    await waitUntilUp(`${serviceBase}/healthz`, service);
    await db.connect();

    const owner = world.createUser('owner');
    const requester = world.createUser('requester');
    // A keep-alive socket of the readiness check may have been closed by the server while the CLI ran.
    const fetch = (url: string, init: RequestInit) => globalThis.fetch(url, init).catch(() => sleep(100).then(() => globalThis.fetch(url, init)));
    const { webhookSecret } = await registerAgent(serviceBase, owner.apiKey, { name: 'Ledger Echo', endpoint: agentUrl, capability: 'ledger-echo' }, fetch);

    const floorPort = await freePort();
    const floorBase = `http://127.0.0.1:${floorPort}`;
    const floor = spawn(process.execPath, ['--import', 'tsx', 'bench/floor/server.ts'], {
      env: { ...process.env, DATABASE_URL: world.databaseUrl, PORT: String(floorPort), AGENT_URL: agentUrl, WEBHOOK_SECRET: webhookSecret, API_KEY: requester.apiKey, WORKERS_START: 'later' },
      stdio: 'inherit',
    });
    children.push(floor);
    log('floor: starting');
    await waitUntilUp(`${floorBase}/readyz`, floor);

    const auth = { authorization: `Bearer ${requester.apiKey}` };
    let sequence = 0;
    const taskBody = () => JSON.stringify({ title: 'Echo', description: 'Echo the input back', capabilities: ['ledger-echo'], input: { n: ++sequence } });
    const get = (url: string) => () => ({ method: 'GET', url, headers: auth, expect: 200 }) as Sent;
    const post = (url: string) => () => ({ method: 'POST', url, headers: auth, body: taskBody(), expect: 201 }) as Sent;

    const serviceQueue = async () =>
      Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'task.deliver'`)).rows[0]!.n);
    const dueJobs = async () =>
      Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM graphile_worker.jobs WHERE run_at < now() + interval '3 seconds'`)).rows[0]!.n);
    const floorQueue = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM floor.jobs')).rows[0]!.n);

    // Callbacks of the deliveries received since `from`, sent in a closed loop.
    const callbacks = (from: number) => {
      let i = from;
      return () => {
        const d = agent.deliveries[i++];
        return d ? ({ method: 'POST', url: d.callbackUrl, body: JSON.stringify({ taskToken: d.taskToken, result: { echo: true } }), expect: 200 } as Sent) : null;
      };
    };
    const untilDelivered = async (count: number) => {
      for (let waited = 0; agent.deliveries.length < count; waited += 20) {
        if (waited > 60_000) throw new Error(`only ${agent.deliveries.length} of ${count} deliveries arrived`);
        await sleep(20);
      }
    };

    // A service phase, its allocations sampled with --allocations: the last round's per line, with the
    // number of requests (or jobs) they are divided by.
    const allocations = new Map<Line, { summary: AllocationSummary; count: number }>();
    const sampled = async <T,>(line: Line, run: () => Promise<T>, count: (result: T) => number): Promise<T> => {
      if (!args.allocations) return run();
      await control(`${serviceBase}/ledger/heap/start`);
      const result = await run();
      const summary = (await (await globalThis.fetch(`${serviceBase}/ledger/heap/stop`)).json()) as AllocationSummary;
      allocations.set(line, { summary, count: count(result) });
      return result;
    };
    const requests = (r: { count: number }) => r.count;

    const measureService = async (): Promise<Partial<Record<Line, number>>> => {
      const pid = service.pid!;
      const out: Partial<Record<Line, number>> = {};
      const probes: [Line, string][] = [
        ['bare', '/ledger/bare'],
        ['router', '/healthz'],
        ['auth', '/ledger/auth'],
        ['listStore', '/ledger/list'],
        ['listRest', '/v1/tasks?limit=1'],
        ['event', '/ledger/event'],
      ];
      for (const [line, path] of probes) if (wanted(line)) out[line] = (await sampled(line, () => closedLoop(pid, get(`${serviceBase}${path}`)), requests)).us;
      if (wanted('tasks')) await measureTasks(out);
      if (wanted('worker')) await measureWorker(out);
      return out;
    };
    const measureTasks = async (out: Partial<Record<Line, number>>) => {
      const pid = service.pid!;
      const before = agent.deliveries.length;
      const direct = await sampled('createStore', () => closedLoop(pid, post(`${serviceBase}/ledger/create`)), requests);
      out.createStore = direct.us;
      const rest = await sampled('createRest', () => closedLoop(pid, post(`${serviceBase}/v1/tasks`)), requests);
      out.createRest = rest.us;
      const tasks = direct.count + rest.count;
      out.delivery = await sampled('delivery', () => drain(pid, () => control(`${serviceBase}/ledger/worker/start`), serviceQueue, tasks), () => tasks);
      await untilDelivered(before + tasks);
      const called = await sampled('callback', () => closedLoop(pid, callbacks(before)), requests);
      out.callback = called.us;
      // The follow-up jobs still queued when the callbacks' loop ends (the agent's figures' recount waits
      // about a second), per callback; the expiry jobs due in an hour are not waited for.
      out.followUp = await sampled('followUp', () => drain(pid, async () => {}, dueJobs, called.count), () => called.count);
      await control(`${serviceBase}/ledger/worker/stop`);
    };
    const measureWorker = async (out: Partial<Record<Line, number>>) => {
      const pid = service.pid!;
      // graphile-worker alone: the same number of no-op jobs as a round delivers, added beforehand.
      await db.query(`SELECT graphile_worker.add_job('ledger_noop', '{}'::json) FROM generate_series(1, $1)`, [noopJobs]);
      const noopLeft = async () => Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'ledger_noop'`)).rows[0]!.n);
      out.worker = await sampled('worker', () => drain(pid, () => control(`${serviceBase}/ledger/noop/start`), noopLeft, noopJobs), () => noopJobs);
      await control(`${serviceBase}/ledger/noop/stop`);
    };

    const measureFloor = async (): Promise<Partial<Record<Line, number>>> => {
      const pid = floor.pid!;
      const out: Partial<Record<Line, number>> = {};
      out.bare = (await closedLoop(pid, get(`${floorBase}/ledger/bare`))).us;
      out.router = (await closedLoop(pid, get(`${floorBase}/readyz`))).us;
      out.auth = (await closedLoop(pid, get(`${floorBase}/ledger/auth`))).us;
      const before = agent.deliveries.length;
      const rest = await closedLoop(pid, post(`${floorBase}/v1/tasks`));
      out.createRest = rest.us;
      out.delivery = await drain(pid, () => control(`${floorBase}/ledger/workers/start`), floorQueue, rest.count);
      await untilDelivered(before + rest.count);
      out.callback = (await closedLoop(pid, callbacks(before))).us;
      await control(`${floorBase}/ledger/workers/stop`);
      return out;
    };

    // Warm-up: every phase for a second, so the first round does not pay for compiling.
    log('warm-up');
    phaseSeconds = 1;
    await measureService();
    if (!only) await measureFloor();
    phaseSeconds = seconds;

    const results: { service: Partial<Record<Line, number>>[]; floor: Partial<Record<Line, number>>[] } = { service: [], floor: [] };
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? (['service', 'floor'] as const) : (['floor', 'service'] as const);
      log(`round ${round} of ${rounds}: ${order.join(', then ')}; ${seconds} s a phase`);
      for (const name of order) if (!only || name === 'service') results[name].push(await (name === 'service' ? measureService() : measureFloor()));
    }

    const of = (name: 'service' | 'floor', line: Line) => {
      const values = results[name].map((r) => r[line]).filter((v): v is number => v !== undefined && Number.isFinite(v));
      return values.length ? median(values) : null;
    };
    const us = (v: number | null) => (v === null ? '—' : v.toFixed(0));
    const adds = (name: 'service' | 'floor', line: Line, on: Line | null) => {
      const v = of(name, line);
      const base = on ? of(name, on) : 0;
      return v === null || base === null ? '—' : (v - base).toFixed(0);
    };
    const rows: [string, Line, Line | null][] = [
      ['node:http alone (GET, fixed answer)', 'bare', null],
      ['+ the HTTP server and router (GET /healthz; floor: /readyz)', 'router', 'bare'],
      ['+ authentication (the API key looked up)', 'auth', 'router'],
      ['+ the task list\'s service call and statements, as JSON', 'listStore', 'auth'],
      ['+ the REST adapter\'s GraphQL execution (GET /v1/tasks?limit=1)', 'listRest', 'listStore'],
      ['create: authentication + the service call and statements', 'createStore', 'auth'],
      ['create: + the REST adapter\'s GraphQL execution (POST /v1/tasks)', 'createRest', 'createStore'],
      ['graphile-worker alone: claim, run a no-op, complete (per job)', 'worker', null],
      ['delivery job: claim, read, sign, POST, record, complete (per job)', 'delivery', 'worker'],
      ['callback (POST /v1/tasks/:id/callback, with the follow-up jobs run meanwhile)', 'callback', 'router'],
      ['the follow-up jobs left when the callbacks end, per task (not in the sum)', 'followUp', null],
      ['a task event: NOTIFY, received, handed to a subscriber', 'event', 'router'],
    ];
    console.log(`\nThe cost ledger: CPU µs per request (or job) of the process, PostgreSQL, ${connections} connections, ${seconds} s a phase, medians of ${rounds} interleaved rounds\n`);
    console.log('| layer | service µs | adds | floor µs | adds | service / floor |');
    console.log('|---|---|---|---|---|---|');
    for (const [label, line, on] of rows) {
      const s = of('service', line);
      const f = of('floor', line);
      const floorAdds = line === 'createRest' ? adds('floor', line, 'auth') : adds('floor', line, on);
      console.log(`| ${label} | ${us(s)} | ${on ? adds('service', line, on) : us(s)} | ${us(f)} | ${f === null ? '—' : on ? floorAdds : us(f)} | ${s !== null && f !== null ? `${(s / f).toFixed(1)}×` : '—'} |`);
    }
    const perTask = (name: 'service' | 'floor') => {
      const parts = [of(name, 'createRest'), of(name, 'delivery'), of(name, 'callback')];
      return parts.every((p) => p !== null) ? parts.reduce((a, b) => a! + b!, 0)! : null;
    };
    const s = perTask('service');
    const f = perTask('floor');
    console.log(`| **a task: create + delivery + callback** | **${us(s)}** | | **${us(f)}** | | **${s !== null && f !== null ? (s / f).toFixed(1) : '—'}×** |`);
    console.log(`\nGET /v1/tasks?limit=1 against GET /healthz on the service: ${((of('service', 'listRest') ?? NaN) / (of('service', 'router') ?? NaN)).toFixed(1)}×`);
    if (args.allocations) printAllocations(allocations, rows);
  } finally {
    for (const child of children) await stop(child);
    agent.server.close();
    await db.end().catch(() => undefined);
    await world.drop();
  }
}

// --allocations: per line, the KB allocated per request (or job), then the largest sources three ways.
function printAllocations(allocations: Map<Line, { summary: AllocationSummary; count: number }>, rows: [string, Line, Line | null][]) {
  const kb = (bytes: number, count: number) => (bytes / count / 1024).toFixed(1);
  console.log('\nAllocated per request (or job), KB, the last round (profiler on: its CPU figures above are not the cost)\n');
  console.log('| layer | KB |');
  console.log('|---|---|');
  for (const [label, line] of rows) {
    const a = allocations.get(line);
    if (a) console.log(`| ${label} | ${kb(a.summary.bytes, a.count)} |`);
  }
  for (const [label, line] of rows) {
    const a = allocations.get(line);
    if (!a) continue;
    console.log(`\n### ${label}: ${kb(a.summary.bytes, a.count)} KB per request`);
    const list = (title: string, entries: [string, number][]) => {
      console.log(`\n${title}:`);
      for (const [name, bytes] of entries) console.log(`  ${kb(bytes, a.count).padStart(6)} KB  ${name}`);
    };
    list('by package or file', a.summary.byOwner);
    list('by allocating function', a.summary.byFunction);
    list("by the service's nearest function", a.summary.byServiceFunction);
    list('by function, with what it calls', a.summary.inclusive);
  }
}

await main();
