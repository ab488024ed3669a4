// What a request costs the process outside its handler: per request, the CPU of each of the process's
// threads (main, libuv's pool, V8's helpers), its context switches and, in a second window under strace,
// its system calls by name; the service (bench/ledger/service.ts, the ledger's probes) beside the floor
// (bench/floor/server.ts), on one scratch PostgreSQL database, the same closed loop against each.
//
//   npx tsx bench/wakeups.ts [--seconds 6] [--connections 8] [--strace] [--perf] [--only auth,list] [--postgres URL]
//
// CPU and switches come from /proc (per thread); --perf adds `perf stat` over the same window; --strace
// adds a window under `strace -f -c` (which slows the process: read its counts, not its times).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { freePort, serviceEnv, stop, waitUntilUp } from './service.js';
import { scratchWorld } from './scratch.js';
import { V8_FLAGS } from '../scripts/v8-flags.mjs';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '6' },
    connections: { type: 'string', default: '8' },
    strace: { type: 'boolean', default: false },
    perf: { type: 'boolean', default: false },
    // A directory: `perf record` of each window into it (run the service with --node-args=--perf-basic-prof for JS names).
    record: { type: 'string' },
    only: { type: 'string' },
    // The service's LOG_LEVEL (the benchmarks' is warn: no access lines); info writes one per request.
    'log-level': { type: 'string', default: 'warn' },
    'node-args': { type: 'string' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const log = (message: string) => process.stderr.write(`${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ThreadSample {
  name: string;
  ticks: number;
  system: number;
  voluntary: number;
  involuntary: number;
}

// Every thread of `pid`: its name, CPU ticks (user + system) and context switches.
function threads(pid: number): Map<number, ThreadSample> {
  const out = new Map<number, ThreadSample>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      const field = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
      out.set(Number(tid), {
        name,
        ticks: Number(fields[11]) + Number(fields[12]),
        system: Number(fields[12]),
        voluntary: field('voluntary_ctxt_switches'),
        involuntary: field('nonvoluntary_ctxt_switches'),
      });
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return out;
}

// The change per thread group (main thread, libuv's pool, V8's workers, the rest) between two samples.
function groupedDelta(before: Map<number, ThreadSample>, after: Map<number, ThreadSample>, mainTid: number) {
  const groups = new Map<string, { ticks: number; system: number; voluntary: number; involuntary: number; threads: number }>();
  for (const [tid, a] of after) {
    const b = before.get(tid) ?? { ticks: 0, system: 0, voluntary: 0, involuntary: 0, name: a.name };
    const group = tid === mainTid ? 'main' : a.name.startsWith('libuv-worker') ? 'libuv pool' : /V8|DefaultWorke/i.test(a.name) ? 'V8 workers' : a.name;
    const g = groups.get(group) ?? { ticks: 0, system: 0, voluntary: 0, involuntary: 0, threads: 0 };
    g.ticks += a.ticks - b.ticks;
    g.system += a.system - b.system;
    g.voluntary += a.voluntary - b.voluntary;
    g.involuntary += a.involuntary - b.involuntary;
    g.threads++;
    groups.set(group, g);
  }
  return groups;
}

function send(agent: http.Agent, url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

async function closedLoop(url: string, headers: Record<string, string>, ms: number, during?: () => void): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = performance.now() + ms;
  let count = 0;
  during?.();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        await send(agent, url, headers);
        count++;
      }
    }),
  );
  agent.destroy();
  return count;
}

// Runs `command` attached to `pid` until stopped with SIGINT; resolves with what it printed on stderr.
function attach(command: string, argv: string[]): { stop: () => Promise<string> } {
  const child = spawn(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (text += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      child.kill('SIGINT');
      await exited;
      return text;
    },
  };
}

function parseStrace(text: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/.exec(line);
    if (m) calls.set(m[2]!, Number(m[1]));
  }
  return calls;
}

// Collections seen in the service's --trace-gc lines: how many, and their pause (ms), by kind.
const gc = new Map<string, number>();
const gcMs = new Map<string, number>();

async function main() {
  const world = await scratchWorld(args.postgres!, 'wakeups');
  const children: ChildProcess[] = [];
  try {
    const servicePort = await freePort();
    const serviceBase = `http://127.0.0.1:${servicePort}`;
    const service = spawn(process.execPath, [...V8_FLAGS, ...(args['node-args']?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'bench/ledger/service.ts'], {
      env: { ...serviceEnv({ dataDir: world.dataDir, port: servicePort }), DATABASE_URL: world.databaseUrl, SECRET_KEY: world.secretKey, PUBLIC_BASE_URL: serviceBase, LOG_LEVEL: args['log-level'] },
      // Its standard output is read for the lines of --trace-gc (given through --node-args), counted per window.
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(service);
    service.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      if (process.env.WAKEUPS_GC_LOG) process.stderr.write(chunk);
      for (const m of chunk.matchAll(/(Scavenge|Mark-Compact|Minor Mark-Sweep|Mark-Sweep)[^,]*?(\d+\.\d+) \((\d+\.\d+)\) -> (\d+\.\d+) \((\d+\.\d+)\) MB, (?:pooled: [\d.]+ MB, )?(\d+\.\d+)/g)) {
        const kind = m[1]!;
        gc.set(kind, (gc.get(kind) ?? 0) + 1);
        gcMs.set(kind, (gcMs.get(kind) ?? 0) + Number(m[6]));
      }
    });
    await waitUntilUp(`${serviceBase}/healthz`, service);
    const requester = world.createUser('requester');
    const floorPort = await freePort();
    const floorBase = `http://127.0.0.1:${floorPort}`;
    const floor = spawn(process.execPath, ['--import', 'tsx', 'bench/floor/server.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: world.databaseUrl,
        PORT: String(floorPort),
        AGENT_URL: 'http://127.0.0.1:9/tasks',
        WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
        API_KEY: requester.apiKey,
        WORKERS_START: 'later',
      },
      stdio: 'inherit',
    });
    children.push(floor);
    await waitUntilUp(`${floorBase}/readyz`, floor);
    const auth = { authorization: `Bearer ${requester.apiKey}` };

    const cases: { name: string; pid: number; url: string }[] = [
      { name: 'service bare', pid: service.pid!, url: `${serviceBase}/ledger/bare` },
      { name: 'service healthz', pid: service.pid!, url: `${serviceBase}/healthz` },
      { name: 'service auth', pid: service.pid!, url: `${serviceBase}/ledger/auth` },
      { name: 'service list', pid: service.pid!, url: `${serviceBase}/v1/tasks?limit=1` },
      { name: 'floor bare', pid: floor.pid!, url: `${floorBase}/ledger/bare` },
      { name: 'floor readyz', pid: floor.pid!, url: `${floorBase}/readyz` },
      { name: 'floor auth', pid: floor.pid!, url: `${floorBase}/ledger/auth` },
    ].filter((c) => !args.only || args.only.split(',').some((o) => c.name.includes(o)));

    log('warm-up');
    for (const c of cases) await closedLoop(c.url, auth, 1500);

    for (const c of cases) {
      gc.clear();
      gcMs.clear();
      const before = threads(c.pid);
      const perf = args.perf ? attach('perf', ['stat', '-e', 'task-clock,context-switches,cpu-migrations', '-p', String(c.pid)]) : null;
      const recorder = args.record ? attach('perf', ['record', '-F', '1999', '-g', '-p', String(c.pid), '-o', `${args.record}/${c.name.replaceAll(' ', '-')}.data`]) : null;
      const count = await closedLoop(c.url, auth, seconds * 1000);
      const perfText = await perf?.stop();
      await recorder?.stop();
      const after = threads(c.pid);
      const groups = groupedDelta(before, after, c.pid);
      let total = 0;
      let switches = 0;
      const parts: string[] = [];
      for (const [group, g] of [...groups].sort((a, b) => b[1].ticks - a[1].ticks)) {
        total += g.ticks;
        switches += g.voluntary + g.involuntary;
        if (g.ticks === 0 && g.voluntary + g.involuntary === 0) continue;
        parts.push(`${group}${g.threads > 1 ? `×${g.threads}` : ''}: ${((g.ticks * 1e4) / count).toFixed(0)} µs (${((g.system * 1e4) / count).toFixed(0)} system), ${((g.voluntary + g.involuntary) / count).toFixed(2)} sw (${(g.involuntary / count).toFixed(2)} invol.)`);
      }
      const rss = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${c.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
      console.log(`\n${c.name}: ${count} requests (${(count / seconds).toFixed(0)}/s); ${((total * 1e4) / count).toFixed(0)} µs CPU, ${(switches / count).toFixed(2)} switches per request; RSS ${rss.toFixed(0)} MB`);
      for (const p of parts) console.log(`  ${p}`);
      if (c.pid === service.pid && gc.size) console.log(`  gc: ${[...gc].map(([kind, n]) => `${kind} ${((n * 1000) / count).toFixed(1)} per 1000 requests, ${((gcMs.get(kind)! * 1000) / count).toFixed(1)} µs pause per request`).join('; ')}`);
      if (perfText) {
        const lines = perfText.split('\n').filter((l) => /task-clock|context-switches|cpu-migrations/.test(l));
        for (const l of lines) {
          const m = /^\s*([\d,.]+)\s+(?:msec\s+)?(\S+)/.exec(l);
          if (m) console.log(`  perf ${m[2]}: ${(Number(m[1]!.replaceAll(',', '')) / count).toFixed(m[2] === 'task-clock' ? 4 : 2)}${m[2] === 'task-clock' ? ' ms' : ''} per request`);
        }
      }
      if (args.strace) {
        await sleep(200);
        const tracer = attach('strace', ['-f', '-c', '-p', String(c.pid)]);
        await sleep(500);
        const traced = await closedLoop(c.url, auth, seconds * 1000);
        const calls = parseStrace(await tracer.stop());
        const rows = [...calls].filter(([name]) => name !== 'total').sort((a, b) => b[1] - a[1]);
        const sum = rows.reduce((s, [, n]) => s + n, 0);
        console.log(`  strace (${traced} requests): ${(sum / traced).toFixed(1)} syscalls per request: ${rows.slice(0, 14).map(([n, k]) => `${n} ${(k / traced).toFixed(2)}`).join(', ')}`);
      }
    }
  } finally {
    for (const child of children) await stop(child);
    await world.drop();
  }
}

await main();
