// RUN_JOBS=false: a process that serves HTTP and runs no jobs. A task created through it waits in the
// queue, untouched, until a process that runs jobs on the same database delivers it. (PostgreSQL only:
// the embedded database has one process, and the setting is refused without DATABASE_URL.)
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { WorkerEvents } from 'graphile-worker';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { startTestAgent, type TestAgent } from './support/agent.js';
import { usingPostgres } from './support/database.js';
import { deliverTask } from '../src/jobs/specs/task-deliver.js';

describe.runIf(usingPostgres())('a process with RUN_JOBS=false', () => {
  let httpOnly: TestServer | undefined;
  let jobs: TestServer | undefined;
  let agent: TestAgent | undefined;
  afterAll(async () => {
    await jobs?.close();
    await httpOnly?.close();
    await agent?.close();
  });

  it('takes tasks and leaves their delivery to a process that runs jobs', async () => {
    // Two processes of one service share its SECRET_KEY (the agent's signing key is sealed with it).
    const serverKey = randomBytes(32);
    // A process that runs jobs has made its worker pool by the time it serves (createApp awaits it).
    const pools = (events: WorkerEvents) => {
      const made: unknown[] = [];
      events.on('pool:create', (e) => void made.push(e));
      return made;
    };
    const httpOnlyEvents = new EventEmitter() as WorkerEvents;
    const httpOnlyPools = pools(httpOnlyEvents);
    httpOnly = await startTestServer({ RUN_JOBS: 'false', DATABASE_URL: process.env.DATABASE_URL! }, { serverKey, jobEvents: httpOnlyEvents });
    expect(httpOnlyPools).toHaveLength(0);
    agent = await startTestAgent();
    const owner = await httpOnly.createUser();
    const requester = await httpOnly.createUser();
    const agentId = (await httpOnly.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Served', endpoint: agent.url } })).body.data.id;
    const created = await httpOnly.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId } });
    expect(created.status).toBe(201);

    // No worker of this process can take it: the job waits, unattempted.
    const queued = await httpOnly.prisma.$queryRaw<Array<{ attempts: number; locked_at: Date | null }>>`
      SELECT attempts, locked_at FROM graphile_worker.jobs WHERE task_identifier = ${deliverTask.name}`;
    expect(queued).toEqual([{ attempts: 0, locked_at: null }]);
    expect(agent.received).toHaveLength(0);

    const jobsEvents = new EventEmitter() as WorkerEvents;
    const jobsPools = pools(jobsEvents);
    jobs = await startTestServer({}, { db: httpOnly.db, serverKey, jobEvents: jobsEvents });
    expect(jobsPools).toHaveLength(1);
    const [delivery] = await agent.waitFor(1);
    expect(delivery!.body.taskId).toBe(created.body.data.id);
  });
});
