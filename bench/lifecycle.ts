// The whole task lifecycle under load: the service (a child process in production mode, on a scratch
// PostgreSQL database or, with --on pglite, the embedded one), a paid agent on loopback that verifies each
// delivery's signature and calls back at once, and a requester with a saved card, so every task is
// created, held on the card, delivered, completed by the callback and captured. A plain node:http server
// is measured in the same run, before each closed-loop phase, and the service's rate is printed as a
// ratio to it (the machines are shared; absolute figures drift, ratios much less).
//
//   npm run bench:lifecycle -- [--on postgres|pglite] [--seconds 10] [--probe 20] [--processes 1]
//                              [--postgres postgresql://postgres@127.0.0.1:5432/test] [--profile DIR]
//
// --processes N (PostgreSQL only) starts N service processes on the one database, with the same
// SECRET_KEY, and sends the requesters' tasks to them in turn (round robin); each delivery calls back
// the process that sent it. It then also checks that a live event reaches a subscriber on one process
// for a task created through another, both ways.
//
// It prints: tasks per second in a closed loop with 5 and 20 requesters (each creates a task and waits
// for its completion, then the next); create→delivery latency at 20 and 2 tasks per second (open loop:
// each latency counts from when the task was due); on PostgreSQL the statements and transactions of
// each step of one task, counted on the wire (bench/pg-statement-counter.ts); the CPU time per task of
// the service and of PostgreSQL; and a check that every task created was completed and captured.
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { drive } from './http-load.js';
import { cpuSeconds, postgresPids, startAgent } from './lifecycle-agent.js';
import { followTask } from './live-across.js';
import { percentile } from './measure.js';
import { startStatementCounter, type Counts, type StatementCounter } from './pg-statement-counter.js';
import { freePort, startPlainServer, startService, stop, waitUntilUp } from './service.js';

const { values: args } = parseArgs({
  options: {
    on: { type: 'string', default: 'postgres' },
    seconds: { type: 'string', default: '10' },
    probe: { type: 'string', default: '20' },
    processes: { type: 'string', default: '1' },
    // Prints the statements of each step of the last probed task.
    trace: { type: 'boolean', default: false },
    // Writes a V8 CPU profile of each service process (node --cpu-prof) into this directory at its exit;
    // summarise one with bench/profile-summary.ts.
    profile: { type: 'string' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const seconds = Number(args.seconds);
const probeTasks = Number(args.probe);
const processCount = Number(args.processes);
if (!Number.isInteger(processCount) || processCount < 1 || processCount > 4 || (processCount > 1 && args.on !== 'postgres')) {
  console.error('--processes: 1 to 4, and more than 1 only on PostgreSQL (the embedded database belongs to one process)');
  process.exit(2);
}
if (!['postgres', 'pglite'].includes(args.on!) || !Number.isInteger(seconds) || seconds < 1 || seconds > 300 || !Number.isInteger(probeTasks) || probeTasks < 1) {
  console.error('usage: npm run bench:lifecycle -- [--on postgres|pglite] [--seconds S (1-300)] [--probe N] [--postgres URL]');
  process.exit(2);
}
const log = (message: string) => process.stderr.write(`${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function json(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function main() {
  const onPostgres = args.on === 'postgres';
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-lifecycle-'));
  const children: ChildProcess[] = [];
  let admin: pg.Client | null = null;
  let counter: StatementCounter | null = null;
  const scratch = `bench_lifecycle_${randomBytes(4).toString('hex')}`;
  const agent = startAgent();
  try {
    let databaseUrl: string | null = null;
    let directUrl: string | null = null;
    if (onPostgres) {
      const server = new URL(args.postgres!);
      admin = new pg.Client({ connectionString: server.toString() });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${scratch}`);
      const direct = new URL(server);
      direct.pathname = `/${scratch}`;
      directUrl = direct.toString();
      counter = await startStatementCounter({ host: server.hostname, port: Number(server.port || 5432) });
      const proxied = new URL(direct);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(counter.port);
      databaseUrl = proxied.toString();
    }
    await new Promise<void>((resolve) => agent.server.listen(0, '127.0.0.1', resolve));
    const agentUrl = `http://127.0.0.1:${(agent.server.address() as { port: number }).port}/tasks`;

    // Every process of one service shares its SECRET_KEY (API keys, tokens and secrets are made with it).
    const secretKey = randomBytes(32).toString('hex');
    const services: ChildProcess[] = [];
    const bases: string[] = [];
    // On PostgreSQL the per-step counts need the service's connections to pass through the counting proxy,
    // which adds a hop in this process to every round trip; the timed phases run on processes started
    // again on the database directly (the same SECRET_KEY keeps every key, token and secret valid).
    const startProcesses = async (url: string | null, profile: boolean) => {
      for (const child of services.splice(0)) await stop(child);
      bases.length = 0;
      for (let i = 0; i < processCount; i++) {
        const port = await freePort();
        const processBase = `http://127.0.0.1:${port}`;
        const child = startService({
          databaseUrl: url,
          dataDir,
          port,
          nodeArgs: profile && args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [],
          env: { ALLOW_SIMULATED_PAYMENTS: 'true', ALLOW_PRIVATE_ENDPOINTS: 'true', PUBLIC_BASE_URL: processBase, SECRET_KEY: secretKey },
        });
        children.push(child);
        services.push(child);
        bases.push(processBase);
        log(`service process ${i + 1} of ${processCount} on ${onPostgres ? 'PostgreSQL' : 'the embedded database'}${url === databaseUrl && counter ? ', counted' : ''}: starting`);
        await waitUntilUp(`${processBase}/readyz`, child);
      }
    };
    await startProcesses(databaseUrl, !counter);
    const base = () => bases[0]!;
    const servicePids = () => services.map((child) => child.pid!);

    // The CLI on the service's database: directly on PostgreSQL, or through the embedded one's socket.
    const cliEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    if (directUrl) cliEnv.DATABASE_URL = directUrl;
    else delete cliEnv.DATABASE_URL;
    const cli = (cliArgs: string[]) =>
      JSON.parse(execFileSync(process.execPath, ['scripts/cli.mjs', ...cliArgs, '--json'], { env: cliEnv, encoding: 'utf8' })) as { id: string; apiKey: string };
    const owner = cli(['user', 'create', '--email', `owner-${scratch}@example.com`]);
    const requester = cli(['user', 'create', '--email', `requester-${scratch}@example.com`]);
    const as = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
    const created = await json(
      await fetch(`${base()}/v1/agents`, {
        method: 'POST',
        headers: as(owner.apiKey),
        body: JSON.stringify({ name: 'Bench Echo', endpoint: agentUrl, capabilities: ['bench-echo'], priceCents: 250 }),
      }),
    );
    const agentId = (created.data as { id: string }).id;
    const secret = await json(await fetch(`${base()}/v1/agents/${agentId}/webhook-secret`, { method: 'POST', headers: as(owner.apiKey) }));
    agent.setSecret(secret.webhookSecret as string);
    await json(await fetch(`${base()}/v1/billing/payment-method`, { method: 'POST', headers: as(requester.apiKey), body: JSON.stringify({ paymentMethodId: 'pm_card_visa' }) }));

    // timeout: an idle socket is dropped before the service's keep-alive timeout (node's 5 s) closes it;
    // a phase that waits 5 s (the node:http baseline) otherwise reused a socket the service was closing
    // at that moment, and the request failed with 'socket hang up'.
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 4000 });
    let sequence = 0;
    const taskIds: string[] = [];
    // Creates one task; resolves with its id once the service answered 201.
    // Round robin over the processes.
    const createTask = async (through = bases[sequence % bases.length]!): Promise<string> => {
      const body = JSON.stringify({ title: 'Echo', description: 'Echo the input back', capabilities: ['bench-echo'], input: { n: ++sequence } });
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(`${through}/v1/tasks`, { method: 'POST', agent: keepAlive, headers: { ...as(requester.apiKey), 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
      if (answer.status !== 201) throw new Error(`POST /v1/tasks answered ${answer.status}: ${answer.text}`);
      const id = (JSON.parse(answer.text) as { data: { id: string } }).data.id;
      taskIds.push(id);
      return id;
    };

    log('warm-up: 20 tasks, one at a time');
    for (let i = 0; i < 20; i++) await agent.completion(await createTask());

    // Per step, one task at a time, the steps kept apart: the callback is held until the delivery's
    // own work is done (the task is in_progress), and the capture is awaited after the callback.
    const steps: Record<string, Counts[]> = { 'create (POST /v1/tasks)': [], 'delivery job': [], 'callback (POST)': [], 'payment capture job': [] };
    let idlePerSecond: Counts | null = null;
    if (counter && directUrl) {
      const direct = new pg.Client({ connectionString: directUrl });
      await direct.connect();
      const statusOf = async (id: string) =>
        (await direct.query<{ status: string; payment: string | null }>('SELECT t.status, p.status AS payment FROM tasks t LEFT JOIN payments p ON p.task_id = t.id WHERE t.id = $1', [id])).rows[0];
      const until = async (id: string, done: (row: { status: string; payment: string | null }) => boolean) => {
        for (let i = 0; i < 2000; i++) {
          const row = await statusOf(id);
          if (row && done(row)) return;
          await sleep(2);
        }
        throw new Error(`task ${id} did not get there`);
      };
      const diff = (a: Counts, b: Counts): Counts => ({ statements: b.statements - a.statements, transactions: b.transactions - a.transactions });
      const idleStart = counter.counts();
      await sleep(3000);
      const idle = diff(idleStart, counter.counts());
      idlePerSecond = { statements: idle.statements / 3, transactions: idle.transactions / 3 };
      log(`per-step counts: ${probeTasks} tasks, one at a time`);
      const traced: Record<string, string[]> = {};
      for (let i = 0; i < probeTasks; i++) {
        const tracing = args.trace && i === probeTasks - 1;
        let recorder = tracing ? counter!.record() : null;
        const cut = (step: string) => {
          if (!recorder) return;
          traced[step] = recorder.stop();
          recorder = counter!.record();
        };
        const release = agent.holdCallbacks();
        const c0 = counter.counts();
        const id = await createTask();
        const c1 = counter.counts();
        cut('create');
        await until(id, (row) => row.status === 'in_progress');
        // The delivery job records its attempt after the task moved; give it a moment to finish.
        await sleep(30);
        const c2 = counter.counts();
        cut('delivery');
        const completion = agent.completion(id);
        release();
        await completion;
        const c3 = counter.counts();
        cut('callback');
        await until(id, (row) => row.payment === 'captured');
        await sleep(30);
        const c4 = counter.counts();
        cut('capture');
        recorder?.stop();
        steps['create (POST /v1/tasks)']!.push(diff(c0, c1));
        steps['delivery job']!.push(diff(c1, c2));
        steps['callback (POST)']!.push(diff(c2, c3));
        steps['payment capture job']!.push(diff(c3, c4));
      }
      await direct.end();
      for (const [step, texts] of Object.entries(traced)) console.log(`\n--- statements of ${step} ---\n${texts.join('\n')}`);
    }

    if (counter && directUrl) {
      await startProcesses(directUrl, true);
      log('timed phases on the database directly; warm-up: 20 tasks, one at a time');
      for (let i = 0; i < 20; i++) await agent.completion(await createTask());
    }

    const closedLoop = async (requesters: number) => {
      const deadline = performance.now() + seconds * 1000;
      let done = 0;
      const cpu0 = { service: cpuSeconds(servicePids()), postgres: onPostgres ? cpuSeconds(postgresPids()) : 0 };
      const started = performance.now();
      await Promise.all(
        Array.from({ length: requesters }, async () => {
          while (performance.now() < deadline) {
            await agent.completion(await createTask());
            done++;
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      const cpu = { service: cpuSeconds(servicePids()) - cpu0.service, postgres: onPostgres ? cpuSeconds(postgresPids()) - cpu0.postgres : 0 };
      return { tasks: done, perSecond: done / elapsed, serviceCpuMsPerTask: (cpu.service * 1000) / done, postgresCpuMsPerTask: (cpu.postgres * 1000) / done };
    };

    const openLoop = async (perSecond: number) => {
      const count = Math.max(10, Math.floor(perSecond * seconds));
      const started = performance.now();
      const due = new Map<string, number>();
      // How long the create request itself took: the rest of create→delivery is the service's jobs.
      const answered: number[] = [];
      const creating: Promise<void>[] = [];
      for (let i = 0; i < count; i++) {
        const at = started + (i * 1000) / perSecond;
        const wait = at - performance.now();
        if (wait > 0) await sleep(wait);
        creating.push(
          createTask().then((id) => {
            answered.push(performance.now() - at);
            due.set(id, at);
          }),
        );
      }
      await Promise.all(creating);
      for (let waited = 0; [...due.keys()].some((id) => !agent.receivedAt.has(id)) && waited < 30_000; waited += 50) await sleep(50);
      const latencies = [...due].filter(([id]) => agent.receivedAt.has(id)).map(([id, at]) => agent.receivedAt.get(id)! - at).sort((a, b) => a - b);
      await Promise.all([...due.keys()].map((id) => agent.completion(id)));
      answered.sort((a, b) => a - b);
      return { tasks: count, p50: percentile(latencies, 50), p99: percentile(latencies, 99), answeredP50: percentile(answered, 50), missing: count - latencies.length };
    };

    const plainPort = await freePort();
    const plain = startPlainServer(plainPort);
    children.push(plain);
    await waitUntilUp(`http://127.0.0.1:${plainPort}/`, plain);
    const baseline = (connections: number) => drive(`http://127.0.0.1:${plainPort}`, ['/'], seconds * 1000, connections);

    const loops = [];
    for (const requesters of [5, 20]) {
      log(`plain node:http, ${requesters} connections, ${seconds} s; then the lifecycle with ${requesters} requesters`);
      const plainRate = await baseline(requesters);
      const run = await closedLoop(requesters);
      loops.push({ requesters, plain: plainRate.perSecond, ...run });
    }
    log(`create→delivery at 20 tasks/s, then at 2 tasks/s (${seconds} s each, at least 10 tasks)`);
    const at20 = await openLoop(20);
    const at2 = await openLoop(2);

    // Live events across processes: each process in turn creates a task (its callback held back), the
    // next one's subscriber follows it to completion.
    const across: string[] = [];
    let acrossFailed = false;
    for (let i = 0; processCount > 1 && i < processCount; i++) {
      const through = i;
      const on = (i + 1) % processCount;
      const release = agent.holdCallbacks();
      const taskId = await createTask(bases[through]);
      try {
        const seen = await followTask({ base: bases[on]!, apiKey: requester.apiKey, taskId, timeoutMs: 15_000, subscribed: release });
        across.push(`subscribed on process ${on + 1} to a task created through process ${through + 1}: saw ${seen.join(' → ')}`);
      } catch (error) {
        release();
        acrossFailed = true;
        across.push(`subscribed on process ${on + 1} to a task created through process ${through + 1}: FAILED, ${(error as Error).message}`);
      }
    }

    // Let the capture jobs of the last tasks run, then check every task.
    let lost: { status: string; payment: string | null; n: number }[] = [];
    const check = onPostgres ? directUrl! : null;
    if (check) {
      const direct = new pg.Client({ connectionString: check });
      await direct.connect();
      for (let waited = 0; waited < 30_000; waited += 250) {
        lost = (
          await direct.query<{ status: string; payment: string | null; n: number }>(
            `SELECT t.status, p.status AS payment, count(*)::int AS n FROM tasks t LEFT JOIN payments p ON p.task_id = t.id
             WHERE NOT (t.status = 'completed' AND p.status = 'captured') GROUP BY 1, 2`,
          )
        ).rows;
        if (lost.length === 0) break;
        await sleep(250);
      }
      await direct.end();
    } else {
      for (let waited = 0; waited < 30_000; waited += 250) {
        const rows = await Promise.all(taskIds.slice(-50).map(async (id) => (await json(await fetch(`${base()}/v1/tasks/${id}`, { headers: as(requester.apiKey) }))).data as { status: string; payment: { status: string } }));
        lost = rows.filter((t) => !(t.status === 'completed' && t.payment.status === 'captured')).map((t) => ({ status: t.status, payment: t.payment.status, n: 1 }));
        if (lost.length === 0) break;
        await sleep(250);
      }
    }

    const processes = processCount > 1 ? `${processCount} service processes (round robin), ` : '';
    console.log(`\nTask lifecycle on ${onPostgres ? 'PostgreSQL' : 'the embedded database (PGlite)'}: ${processes}${seconds} s per phase, ${taskIds.length} tasks in all, paid by a saved card (hold, capture)\n`);
    console.log('| closed loop | plain node:http per s | tasks per s | ratio | service CPU ms/task | PostgreSQL CPU ms/task |');
    console.log('|---|---|---|---|---|---|');
    for (const l of loops) {
      console.log(`| ${l.requesters} requesters | ${l.plain.toFixed(0)} | ${l.perSecond.toFixed(1)} | ${(l.perSecond / l.plain).toFixed(4)}x | ${l.serviceCpuMsPerTask.toFixed(2)} | ${onPostgres ? l.postgresCpuMsPerTask.toFixed(2) : 'in the service'} |`);
    }
    console.log('\n| create → delivery received (open loop) | tasks | p50 ms | p99 ms | of which the create request, p50 ms | not delivered in 30 s |');
    console.log('|---|---|---|---|---|---|');
    for (const [rate, r] of [['20 tasks/s', at20], ['2 tasks/s', at2]] as const) {
      console.log(`| ${rate} | ${r.tasks} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.answeredP50.toFixed(1)} | ${r.missing} |`);
    }
    if (idlePerSecond) {
      console.log(`\n| step of one task (mean of ${probeTasks}, on the wire) | statements | transactions |`);
      console.log('|---|---|---|');
      let total: Counts = { statements: 0, transactions: 0 };
      for (const [name, counts] of Object.entries(steps)) {
        const mean = (k: keyof Counts) => counts.reduce((sum, c) => sum + c[k], 0) / counts.length;
        total = { statements: total.statements + mean('statements'), transactions: total.transactions + mean('transactions') };
        console.log(`| ${name} | ${mean('statements').toFixed(1)} | ${mean('transactions').toFixed(1)} |`);
      }
      console.log(`| **per task** | **${total.statements.toFixed(1)}** | **${total.transactions.toFixed(1)}** |`);
      console.log(`\nidle service: ${idlePerSecond.statements.toFixed(1)} statements/s, ${idlePerSecond.transactions.toFixed(1)} transactions/s (heartbeat, worker), included above in proportion to each step's time`);
    }
    const lostCount = lost.reduce((sum, row) => sum + row.n, 0);
    const neverDelivered = taskIds.filter((id) => !agent.deliveries.has(id)).length;
    const deliveredTwice = [...agent.deliveries.values()].filter((n) => n > 1).length;
    console.log(`\ntasks not completed and captured: ${lostCount}${lostCount ? ` ${JSON.stringify(lost)}` : ''}; deliveries with a bad signature: ${agent.rejected()}`);
    console.log(`tasks delivered exactly once: ${taskIds.length - neverDelivered - deliveredTwice} of ${taskIds.length} (never: ${neverDelivered}, more than once: ${deliveredTwice})`);
    for (const line of across) console.log(`live events across processes: ${line}`);
    if (lostCount || agent.rejected() || neverDelivered || deliveredTwice || acrossFailed) process.exitCode = 1;
  } finally {
    for (const child of children) await stop(child);
    agent.server.close();
    await counter?.close();
    await rm(dataDir, { recursive: true, force: true });
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
      await admin.end();
    }
  }
}

await main();
