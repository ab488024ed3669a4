// The service and its helpers for the HTTP benchmarks: a child process in production mode on a given
// database, with rate limits off (one benchmark client sends far more than a caller's budget), no
// health probes of the generated agents' endpoints, and the simulated payment processor (production mode
// otherwise refuses to start without a Stripe key; no benchmark moves money).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// The benchmark settings of a service process on `port` with its data under `dataDir`.
export function serviceEnv(opts: { dataDir: string; port: number }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(opts.port),
    DATA_DIR: opts.dataDir,
    SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    HEALTH_PROBE_ENABLED: 'false',
    ALLOW_SIMULATED_PAYMENTS: 'true',
    ALLOW_OPEN_SIGNUP_WITHOUT_MAIL: 'true',
  };
}

// databaseUrl null: the embedded database under dataDir. env: settings added for one benchmark.
export function startService(opts: { databaseUrl: string | null; dataDir: string; port: number; nodeArgs?: string[]; env?: Record<string, string> }): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...serviceEnv(opts), ...opts.env };
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  else delete env.DATABASE_URL;
  return spawn(process.execPath, [...(opts.nodeArgs ?? []), 'scripts/start.mjs'], { env, stdio: 'inherit' });
}

// The baseline of the HTTP benchmarks: node:http and nothing else, in a process of its own like the service.
const PLAIN_SERVER = `
const http = require('node:http');
const body = JSON.stringify({ data: [], total: 0, page: 1, perPage: 20, totalPages: 0 });
http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); })
  .listen(Number(process.env.PORT), '127.0.0.1');
`;

export function startPlainServer(port: number): ChildProcess {
  return spawn(process.execPath, ['-e', PLAIN_SERVER], { env: { ...process.env, PORT: String(port) }, stdio: 'inherit' });
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });

export async function waitUntilUp(url: string, child: ChildProcess): Promise<void> {
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  for (let waited = 0; waited < 120_000; waited += 250) {
    if (exited !== null) throw new Error(`server exited with ${exited}`);
    const up = await fetch(url, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
    if (up) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
