// `npm run example:agent` as a newcomer runs it: it finds the service from the same settings `npm start`
// reads (PORT, PUBLIC_BASE_URL), and where nothing answers it says in one line which setting to change.
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { freePort, projectRoot } from './support/processes.js';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
test.beforeAll(async ({ server: s }) => {
  server = s;
});

// Runs the example agent until it prints its first line (or exits), then stops it.
function runAgent(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of ['SERVICE_URL', 'PUBLIC_BASE_URL', 'PORT', 'API_KEY', 'KEY']) if (!(name in env)) delete childEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/agent/main.ts'], { cwd: projectRoot, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.includes('\n')) child.kill('SIGTERM');
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

it('finds the service from PORT, as npm start reads it, and registers itself', async () => {
  const owner = await server.createUser();
  const port = new URL(server.url).port;
  const agentPort = await freePort();
  const run = await runAgent({ PORT: port, API_KEY: owner.apiKey, AGENT_PORT: String(agentPort) });
  expect(run.stderr).toBe('');
  expect(run.stdout).toMatch(new RegExp(`^agent agt_\\w+ listening on http://127\\.0\\.0\\.1:${agentPort}/tasks\\n`));
}, 60_000);

it('says in one line which setting to use when no service answers, exit 2', async () => {
  const port = await freePort();
  const run = await runAgent({ PORT: String(port), API_KEY: 'tmk_whatever' });
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toEqual([`PORT: no service answers at http://localhost:${port}; start it (npm start) or set SERVICE_URL to where it runs`]);

  const elsewhere = await runAgent({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}/`, API_KEY: 'tmk_whatever' });
  expect(elsewhere.stderr.trim()).toBe(`PUBLIC_BASE_URL: no service answers at http://127.0.0.1:${port}; start it (npm start) or set SERVICE_URL to where it runs`);
}, 60_000);
