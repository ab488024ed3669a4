// Start-up cost: how long `npm start` takes from spawn to /readyz answering 200 on a data directory that
// already holds a migrated database (a restart, the common case), and how long one CLI command takes on
// that directory (no server holding it: the CLI opens the database itself). Each is measured as wall time
// and as the CPU the process used, against a baseline in the same run: `node -e ''` started the same way.
// Runs are interleaved (baseline, start, CLI, baseline, …) so load on a shared machine touches all alike.
//
//   npm run bench:startup -- [--runs 7] [--node-arg=--some-v8-flag …]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from './service.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    // A V8 or Node flag for the service and CLI processes (repeatable), to compare start-up settings.
    'node-arg': { type: 'string', multiple: true, default: [] },
  },
});
const nodeArgs = args['node-arg'];
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 50) {
  console.error('usage: npm run bench:startup -- [--runs N (1-50)]');
  process.exit(2);
}

interface Sample {
  wallMs: number;
  cpuMs: number;
}

const baseEnv = (dataDir: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SECRET_KEY: 'c'.repeat(64) };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.NODE_ENV;
  return env;
};

// Runs a process to its end; the CPU is what the kernel counted for it (user + system).
function runToEnd(args: string[], env: NodeJS.ProcessEnv): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}`));
      resolve({ wallMs: performance.now() - started, cpuMs: childCpuSince() });
    });
  });
}

// The CPU of the children reaped since the last call: cutime and cstime of /proc/self/stat (fields 16
// and 17, in clock ticks of 10 ms), which Node does not expose.
let childrenCpuSeen = 0;
function childCpuSince(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const total = (Number(fields[13]) + Number(fields[14])) * 10;
  const since = total - childrenCpuSeen;
  childrenCpuSeen = total;
  return since;
}

async function startToReady(dataDir: string): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, 'scripts/start.mjs'], { env: { ...baseEnv(dataDir), PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const wallMs = performance.now() - started;
  child.kill('SIGTERM');
  await exited;
  // The CPU of the whole run up to its exit (the stop is short beside the start).
  return { wallMs, cpuMs: childCpuSince() };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-startup-'));
  try {
    childCpuSince();
    // The first start creates and migrates the database; it is reported apart.
    const first = await startToReady(dataDir);
    const samples = { baseline: [] as Sample[], start: [] as Sample[], cli: [] as Sample[] };
    for (let i = 0; i < runs; i++) {
      samples.baseline.push(await runToEnd(['-e', ''], baseEnv(dataDir)));
      samples.start.push(await startToReady(dataDir));
      samples.cli.push(await runToEnd([...nodeArgs, 'scripts/cli.mjs', 'user', 'create', '--email', `bench${i}@example.com`, '--json'], baseEnv(dataDir)));
    }
    const base = median(samples.baseline.map((s) => s.wallMs));
    const row = (name: string, s: Sample[]) => {
      const wall = median(s.map((x) => x.wallMs));
      const cpu = median(s.map((x) => x.cpuMs));
      return `${name.padEnd(34)} ${wall.toFixed(0).padStart(6)} ms wall ${cpu.toFixed(0).padStart(6)} ms CPU   ${(wall / base).toFixed(1).padStart(5)}× node -e ''`;
    };
    console.log(`median of ${runs} runs, interleaved`);
    console.log(row("node -e '' (baseline)", samples.baseline));
    console.log(row('npm start to /readyz (restart)', samples.start));
    console.log(row('CLI user create (opens the db)', samples.cli));
    console.log(`first start on an empty DATA_DIR: ${first.wallMs.toFixed(0)} ms wall`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
