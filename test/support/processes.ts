// The service and its CLI as separate processes, started the way `npm start` (scripts/start.mjs) and
// `npm run cli` (scripts/cli.mjs) start them, from their bundles, for tests whose point is a process: shared
// databases, signals, exit codes, files left behind.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { until } from './wait.js';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const node = process.execPath;
// The same V8 tier as the test workers (vitest.config.ts): a test's process lives for seconds.
const service = ['--liftoff-only', 'scripts/start.mjs'];

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

// The child's environment: this one without the database settings (a test names its database itself)
// nor Redis (whose rate-limit counters every test run would share), quiet, and allowed to reach
// loopback endpoints.
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', ALLOW_PRIVATE_ENDPOINTS: 'true' };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  delete env.PORT;
  delete env.REDIS_URL;
  return { ...env, ...extra };
}

function collect(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs the CLI as `npm run cli` does (its bundle, rebuilt when stale) to the end. */
export function runCli(args: string[], env: Record<string, string>): Promise<Finished> {
  const child = spawn(node, ['scripts/cli.mjs', ...args], { cwd: projectRoot, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child);
}

/** Runs the service to its end; for starts that are meant to fail. */
export function runMain(env: Record<string, string>): Promise<Finished> {
  const child = spawn(node, service, { cwd: projectRoot, env: childEnv({ HOST: '127.0.0.1', PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child);
}

/** A port nothing listens on at the moment of asking. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  // Settles when the process has exited, with everything it printed.
  finished: Promise<Finished>;
  // Sends the signal and waits for the exit.
  stop(signal?: NodeJS.Signals): Promise<Finished>;
}

/** Spawns the service on a free loopback port and waits until /readyz answers 200. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(node, service, {
    cwd: projectRoot,
    env: childEnv({ HOST: '127.0.0.1', PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that killAll also reaches anything the service started.
    detached: true,
  });
  const finished = collect(child);
  let exited: Finished | null = null;
  void finished.then((f) => (exited = f), () => {});
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    url,
    child,
    finished,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return finished;
    },
  };
  // Generous: a cold start compiles and migrates.
  const ready = async () => {
    if (exited) throw new Error(`the server exited with code ${exited.code} before it was ready:\n${exited.stderr}`);
    return fetch(`${url}/readyz`).then((res) => res.status === 200, () => false);
  };
  try {
    await until('the server ready', ready, 120_000);
  } catch (error) {
    killGroup(child);
    throw error;
  }
  return server;
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Kills what is still running; for afterAll, after a failed test left a process behind. */
export async function killAll(servers: Array<ServerProcess | undefined>): Promise<void> {
  await Promise.all(
    servers.map(async (s) => {
      if (!s || s.child.exitCode !== null || s.child.signalCode !== null) return;
      killGroup(s.child);
      await s.finished.catch(() => {});
    }),
  );
}
