// What the running service holds: its resident memory (RSS, from /proc) when idle after start, and after
// N tasks completed end to end (created over REST, delivered to a loopback agent that calls back at once),
// with V8's share (heap, external and array buffers, from /metrics) beside it. The service runs as in
// production (bench/service.ts), on a scratch PostgreSQL database or on the embedded one, migrated before.
//
// The service gets glibc's malloc settings as `npm start` and the image give it (`--malloc tuned`, the
// default: MALLOC_ARENA_MAX=1, MALLOC_TRIM_THRESHOLD_=131072, MALLOC_MMAP_THRESHOLD_=32768); `--malloc
// arena` sets only MALLOC_ARENA_MAX=1 and `--malloc default` none (glibc's own: up to 8 arenas per core,
// dynamic thresholds), to compare. Beside the memory, each checkpoint reports the tasks per second and the
// service's CPU time per task (user + system, from /proc), what the settings could cost under load.
//
//   npm run bench:memory -- [--on postgres|pglite] [--tasks 200,1000] [--postgres postgresql://…] [--malloc tuned|arena|default]
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { callBack, verifyDelivery } from '../examples/agent/kit.js';
import { freePort, startService, stop, waitUntilUp } from './service.js';

const { values: args } = parseArgs({
  options: {
    on: { type: 'string', default: 'postgres' },
    tasks: { type: 'string', default: '200,1000' },
    // V8 flags for the service process, to compare ("--max-semi-space-size=2").
    'node-args': { type: 'string' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
    malloc: { type: 'string', default: 'tuned' },
  },
});
const checkpoints = args.tasks!.split(',').map(Number);
const MALLOC: Record<string, Record<string, string>> = {
  tuned: { MALLOC_ARENA_MAX: '1', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_MMAP_THRESHOLD_: '32768' },
  arena: { MALLOC_ARENA_MAX: '1' },
  default: {},
};
const malloc = MALLOC[args.malloc!];
if (!['postgres', 'pglite'].includes(args.on!) || checkpoints.some((n) => !Number.isInteger(n) || n < 1) || !malloc) {
  console.error('usage: npm run bench:memory -- [--on postgres|pglite] [--tasks 200,1000] [--postgres URL] [--malloc tuned|arena|default]');
  process.exit(2);
}
const mallocEnv: Record<string, string> = malloc;
// Only the settings chosen: whatever the shell had set is left out.
for (const name of Object.keys(MALLOC.tuned!)) delete process.env[name];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

// The CPU time a process has used, user and system, in seconds (/proc/PID/stat fields 14 and 15, in clock ticks).
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

function statusField(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`))!;
  return Number(line.split(/\s+/)[1]) * 1024;
}

async function v8Figures(base: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const read = (name: string) => Number(text.split('\n').find((l) => l.startsWith(`${name} `))?.split(' ')[1] ?? NaN);
  return {
    heapUsed: read('nodejs_heap_size_used_bytes'),
    heapTotal: read('nodejs_heap_size_total_bytes'),
    external: read('nodejs_external_memory_bytes'),
  };
}

async function report(label: string, pid: number, base: string) {
  await sleep(3000);
  if (process.env.BENCH_SNAPSHOT) {
    process.kill(pid, 'SIGUSR2');
    await sleep(15000);
  }
  const v8 = await v8Figures(base);
  console.log(
    `${label.padEnd(22)} RSS ${mb(statusField(pid, 'VmRSS')).padStart(7)}  (anonymous ${mb(statusField(pid, 'RssAnon'))}, files ${mb(statusField(pid, 'RssFile'))})  ` +
      `V8 heap used ${mb(v8.heapUsed!)} of ${mb(v8.heapTotal!)}, external ${mb(v8.external!)}`,
  );
}

function startAgent() {
  let secret = '';
  let done = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const delivery = verifyDelivery({ rawBody: Buffer.concat(chunks), headers: req.headers, secret });
      res.writeHead(200).end();
      // A loaded machine may answer late; the callback is tried again rather than lost.
      for (let attempt = 1; attempt <= 5; attempt++) {
        const answer = await callBack(delivery, { result: { echo: delivery.input } }).catch(() => null);
        if (answer?.status === 200) {
          done++;
          break;
        }
      }
    });
  });
  return { server, setSecret: (s: string) => (secret = s), done: () => done };
}

async function main() {
  const onPostgres = args.on === 'postgres';
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-memory-'));
  const scratch = `bench_memory_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client | null = null;
  let service: ChildProcess | null = null;
  const agent = startAgent();
  try {
    let databaseUrl: string | null = null;
    if (onPostgres) {
      admin = new pg.Client({ connectionString: args.postgres });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${scratch}`);
      const url = new URL(args.postgres!);
      url.pathname = `/${scratch}`;
      databaseUrl = url.toString();
    }
    await new Promise<void>((resolve) => agent.server.listen(0, '127.0.0.1', resolve));
    const agentUrl = `http://127.0.0.1:${(agent.server.address() as { port: number }).port}/tasks`;
    // A deployment migrates once; its processes restart on a current database and never load the schema
    // engine (about 20 MB more when they do). So the database is migrated before the measured start.
    const migrateEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    if (databaseUrl) migrateEnv.DATABASE_URL = databaseUrl;
    else delete migrateEnv.DATABASE_URL;
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/db-migrate.ts'], { env: migrateEnv, stdio: 'ignore' });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    service = startService({ databaseUrl, dataDir, port, nodeArgs: [...(args['node-args']?.split(' ').filter(Boolean) ?? []), ...(process.env.BENCH_SNAPSHOT ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${process.env.BENCH_SNAPSHOT}`] : [])], env: { ALLOW_PRIVATE_ENDPOINTS: 'true', PUBLIC_BASE_URL: base, ...mallocEnv } });
    await waitUntilUp(`${base}/readyz`, service);
    const pid = service.pid!;
    console.log(`the service on ${onPostgres ? 'PostgreSQL' : 'the embedded database (PGlite)'}, production mode, malloc ${args.malloc} (${Object.entries(mallocEnv).map(([k, v]) => `${k}=${v}`).join(' ') || "glibc's defaults"})`);
    await report('idle after start', pid, base);

    const cliEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    if (databaseUrl) cliEnv.DATABASE_URL = databaseUrl;
    else delete cliEnv.DATABASE_URL;
    const owner = JSON.parse(execFileSync(process.execPath, ['scripts/cli.mjs', 'user', 'create', '--email', `m-${scratch}@example.com`, '--json'], { env: cliEnv, encoding: 'utf8' })) as { apiKey: string };
    const headers = { authorization: `Bearer ${owner.apiKey}`, 'content-type': 'application/json' };
    const created = (await (await fetch(`${base}/v1/agents`, { method: 'POST', headers, body: JSON.stringify({ name: 'Memory Echo', endpoint: agentUrl, capabilities: ['memory-echo'] }) })).json()) as { data: { id: string } };
    const secret = (await (await fetch(`${base}/v1/agents/${created.data.id}/webhook-secret`, { method: 'POST', headers })).json()) as { webhookSecret: string };
    agent.setSecret(secret.webhookSecret);

    let sent = 0;
    const requesters = 10;
    for (const target of checkpoints) {
      const started = performance.now();
      const cpuBefore = cpuSeconds(pid);
      const worker = async () => {
        while (sent < target) {
          sent++;
          const res = await fetch(`${base}/v1/tasks`, { method: 'POST', headers, body: JSON.stringify({ title: 'Echo', description: 'Echo it', capabilities: ['memory-echo'], input: { n: sent } }) });
          if (res.status !== 201) throw new Error(`POST /v1/tasks answered ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
        }
      };
      await Promise.all(Array.from({ length: requesters }, worker));
      for (let i = 0; i < 600 && agent.done() < target; i++) await sleep(100);
      if (agent.done() < target) throw new Error(`only ${agent.done()} of ${target} tasks completed`);
      const count = target - (checkpoints[checkpoints.indexOf(target) - 1] ?? 0);
      const seconds = (performance.now() - started) / 1000;
      const cpuMs = ((cpuSeconds(pid) - cpuBefore) * 1000) / count;
      console.log(`${target} tasks done, the last ${count} in ${seconds.toFixed(1)} s (${(count / seconds).toFixed(1)} tasks/s), service CPU ${cpuMs.toFixed(1)} ms per task`);
      await report(`after ${target} tasks`, pid, base);
    }
  } finally {
    if (service) await stop(service);
    agent.server.close();
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
      await admin.end();
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
