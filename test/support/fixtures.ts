// The world a test needs, built on demand through vitest fixtures: a running service on its own copy of
// the migrated database, users with API keys, a real agent on loopback registered by its owner, a task.
// A test names what it uses (`async ({ server, agent }) => …`); only that much is built. The service and
// what depends on it live for the whole file; a task is new for each test. A file whose helpers all use
// the same world reads it once, in `test.beforeAll(async ({ server, owner }) => …)` (file fixtures only).
//
// A file sets the service's environment, its clock and retry schedule, where its log lines go, or the
// agent's registration with `const test = testWith({ serverEnv, serverTime, serverLog, agentProfile })`.
// Not with `test.override` at the top of a file: that replaces the shared definitions, and the suite runs
// files one after another in the same worker (isolate: false), so the next file would inherit them.
// A service that sends mail gets a mailbox of the file's with `const test = testWithMailbox(serverEnv)`.
import { Writable } from 'node:stream';
import type { DestinationStream } from 'pino';
import { test as base } from 'vitest';
import type { TimeDeps } from '../../src/deps.js';
import { startTestAgent, type TestAgent } from './agent.js';
import { startMailbox, type Mailbox } from './mailbox.js';
import { startTestServer } from './server.js';

export interface TestUser {
  id: string;
  apiKey: string;
}

export interface RegisteredAgent {
  id: string;
  // The agent's HTTP endpoint: what it received, what it answers.
  http: TestAgent;
}

export interface CreatedTask {
  id: string;
  status: string;
  agentId: string | null;
  [field: string]: unknown;
}

export const test = base
  .extend('serverEnv', { scope: 'file' }, {} as Record<string, string>)
  .extend('serverTime', { scope: 'file' }, {} as Partial<TimeDeps>)
  // The service's log lines, for a file that reads them; otherwise TEST_LOG_LEVEL decides.
  .extend('serverLog', { scope: 'file' }, undefined as DestinationStream | undefined)
  .extend('server', { scope: 'file' }, async ({ serverEnv, serverTime, serverLog }, { onCleanup }) => {
    const server = await startTestServer(serverEnv, { time: serverTime, logStream: serverLog });
    onCleanup(() => server.close());
    return server;
  })
  // The owner of the agent; the requester of tasks. Two different users.
  .extend('owner', { scope: 'file' }, async ({ server }): Promise<TestUser> => server.createUser())
  .extend('requester', { scope: 'file' }, async ({ server }): Promise<TestUser> => server.createUser())
  // What the agent is registered with (POST /v1/agents body, without its endpoint).
  .extend('agentProfile', { scope: 'file' }, { name: 'Fixture agent', capabilities: ['fixture'], protocols: ['http'] } as Record<string, unknown>)
  // An agent of `owner`'s, answering 200 unless told otherwise, with a webhook secret it checks.
  .extend('agent', { scope: 'file' }, async ({ server, owner, agentProfile }, { onCleanup }): Promise<RegisteredAgent> => {
    const http = await startTestAgent();
    onCleanup(() => http.close());
    const created = await server.api.post('/v1/agents', {
      key: owner.apiKey,
      body: { ...agentProfile, endpoint: http.url },
    });
    if (created.status !== 201) throw new Error(`the fixture agent was refused: ${JSON.stringify(created.body)}`);
    const id = created.body.data.id as string;
    http.secret = (await server.api.post(`/v1/agents/${id}/webhook-secret`, { key: owner.apiKey })).body.webhookSecret;
    return { id, http };
  })
  // A task of `requester`'s for `agent`, made for this test alone.
  .extend('task', async ({ server, requester, agent }): Promise<CreatedTask> => {
    const created = await server.api.post('/v1/tasks', {
      key: requester.apiKey,
      body: { title: 'Fixture task', description: 'Made by the fixture', agentId: agent.id, expiresInMinutes: 30 },
    });
    if (created.status !== 201) throw new Error(`the fixture task was refused: ${JSON.stringify(created.body)}`);
    return created.body.data as CreatedTask;
  });

export interface FileSettings {
  serverEnv?: Record<string, string>;
  serverTime?: Partial<TimeDeps>;
  serverLog?: DestinationStream;
  agentProfile?: Record<string, unknown>;
}

/** The fixtures with this file's own settings: a new definition, the shared one untouched. */
export function testWith(settings: FileSettings): typeof test {
  let derived = test;
  for (const [name, value] of Object.entries(settings)) {
    derived = derived.extend(name as keyof FileSettings, { scope: 'file' }, value as never) as typeof test;
  }
  return derived;
}

/**
 * The fixtures with a `mailbox` on loopback that the service mails (its SMTP_URL), besides `serverEnv`:
 * the mailbox starts before the service and closes after it.
 */
export function testWithMailbox(serverEnv: Record<string, string> = {}) {
  return test
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern: nothing
    .extend('mailbox', { scope: 'file' }, async ({}, { onCleanup }): Promise<Mailbox> => {
      const started = await startMailbox();
      onCleanup(() => started.close());
      return started;
    })
    .extend('serverEnv', { scope: 'file' }, async ({ mailbox }) => ({ ...serverEnv, SMTP_URL: mailbox.url }));
}

/**
 * The service's log lines as it writes them, each parsed, for a file that reads them: `stream` is its
 * `serverLog` (or startTestServer's `logStream`), `lines` fills as the service logs.
 */
export function logLines<Line = Record<string, unknown>>(): { lines: Line[]; stream: Writable } {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text.trim()) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  return { lines, stream };
}

export { describe, expect } from 'vitest';
