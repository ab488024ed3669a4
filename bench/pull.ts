// How soon a task reaches its agent: a pulling agent's waiting long poll beside a webhook's delivery, on
// one service (a child process in production mode, on the embedded database or, with --on postgres, a
// scratch PostgreSQL database). One task at a time, free, sent to the agent by id: for the pull figure a
// long poll is already waiting when the task is created, and the latency runs from the start of the
// create request to the long poll's answer; for the webhook figure, from the start of the create request
// to the delivery's arrival at a node:http endpoint on loopback. Each task is then completed.
//
//   npx tsx bench/pull.ts [--on pglite|postgres] [--tasks 50] [--postgres postgresql://postgres@127.0.0.1:5432/test]
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { percentile } from './measure.js';
import { freePort, startService, stop, waitUntilUp } from './service.js';

const { values: args } = parseArgs({
  options: {
    on: { type: 'string', default: 'pglite' },
    tasks: { type: 'string', default: '50' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const tasks = Number(args.tasks);
if (!['pglite', 'postgres'].includes(args.on!) || !Number.isInteger(tasks) || tasks < 5 || tasks > 1000) {
  console.error('usage: npx tsx bench/pull.ts [--on pglite|postgres] [--tasks N (5-1000)] [--postgres URL]');
  process.exit(2);
}
const log = (message: string) => process.stderr.write(`${message}\n`);

async function call(url: string, key: string | null, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(parsed)}`);
  return { status: res.status, body: parsed };
}

const summary = (name: string, ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `${name}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (${sorted.length} tasks)`;
};

async function main() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-pull-'));
  const scratch = `bench_pull_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client | null = null;
  let databaseUrl: string | null = null;
  if (args.on === 'postgres') {
    admin = new pg.Client({ connectionString: args.postgres });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${scratch}`);
    const url = new URL(args.postgres!);
    url.pathname = `/${scratch}`;
    databaseUrl = url.toString();
  }
  // The webhook agent: notes when each delivery arrives, answers 202, completes the task on its callback.
  const arrived = new Map<string, (at: number) => void>();
  // Deliveries that came before the create request's answer (and so before their id was known here).
  const early = new Map<string, number>();
  const hook = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(202).end();
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { taskId: string; taskToken: string; callbackUrl: string };
      const waiter = arrived.get(payload.taskId);
      if (waiter) waiter(at);
      else early.set(payload.taskId, at);
      void fetch(payload.callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskToken: payload.taskToken, result: { ok: true } }) });
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/tasks`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const secretKey = randomBytes(32).toString('hex');
  const service = startService({ databaseUrl, dataDir, port, env: { ALLOW_PRIVATE_ENDPOINTS: 'true', PUBLIC_BASE_URL: base, SECRET_KEY: secretKey } });
  try {
    await waitUntilUp(`${base}/readyz`, service);
    const cliEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    if (databaseUrl) cliEnv.DATABASE_URL = databaseUrl;
    else delete cliEnv.DATABASE_URL;
    const cli = (cliArgs: string[]) => JSON.parse(execFileSync(process.execPath, ['scripts/cli.mjs', ...cliArgs, '--json'], { env: cliEnv, encoding: 'utf8' })) as { apiKey: string };
    const owner = cli(['user', 'create', '--email', `owner-${scratch}@example.com`]);
    const requester = cli(['user', 'create', '--email', `requester-${scratch}@example.com`]);
    const pullId = ((await call(`${base}/v1/agents`, owner.apiKey, { name: 'Bench Puller', deliveryMode: 'pull' })).body.data as { id: string }).id;
    const hookId = ((await call(`${base}/v1/agents`, owner.apiKey, { name: 'Bench Hook', endpoint: hookUrl })).body.data as { id: string }).id;
    const create = (agentId: string) => call(`${base}/v1/tasks`, requester.apiKey, { title: 'bench', description: 'd', input: { n: 1 }, agentId });

    const pulled: number[] = [];
    const pushed: number[] = [];
    // A few of each first, not counted: connections, prepared statements and code paths warm up.
    for (let i = -5; i < tasks; i++) {
      const waiting = call(`${base}/v1/agents/${pullId}/tasks/claim`, owner.apiKey, { waitSeconds: 30, leaseSeconds: 60 });
      // Let the long poll reach its wait before the task exists.
      await new Promise((r) => setTimeout(r, 30));
      const started = performance.now();
      await create(pullId);
      const claim = await waiting;
      const done = performance.now();
      const [item] = claim.body.data as Array<{ taskToken: string; callbackUrl: string }>;
      if (!item) throw new Error('the long poll ended without the task');
      if (i >= 0) pulled.push(done - started);
      await call(item.callbackUrl, null, { taskToken: item.taskToken, result: { ok: true } });

      const at = performance.now();
      let reached = (_: number) => {};
      const arrival = new Promise<number>((resolve) => (reached = resolve));
      const task = (await create(hookId)).body.data as { id: string };
      const before = early.get(task.id);
      if (before !== undefined) reached(before);
      else arrived.set(task.id, reached);
      const landed = await Promise.race([arrival, new Promise<number>((r) => setTimeout(() => r(-1), 10_000))]);
      arrived.delete(task.id);
      if (landed < 0) throw new Error('a webhook delivery did not arrive');
      if (i >= 0) pushed.push(landed - at);
    }
    log(summary('task created -> waiting long poll answered (pull)', pulled));
    log(summary('task created -> webhook delivery received (push)', pushed));
  } finally {
    await stop(service);
    hook.close();
    await rm(dataDir, { recursive: true, force: true });
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
      await admin.end();
    }
  }
}

await main();
