// Health probes: the SSRF-safe GET, what counts as a healthy answer, and the periodic sweep that probes
// agents on its own once the service runs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeUrl } from '../src/delivery/probe.js';
import { reputationService } from '../src/services/reputation.js';
import { startTestServer, type TestServer } from './support/server.js';
import { makeJobsDue } from './support/jobs.js';
import { until } from './support/wait.js';

// A stand-in agent host: answers each path with the status set for it and counts the requests.
let host: Server;
let hostUrl: string;
const statusOf = new Map<string, number>();
const hits = new Map<string, number>();


beforeAll(async () => {
  host = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const status = statusOf.get(path) ?? 404;
    res.writeHead(status, status === 302 ? { location: 'http://169.254.169.254/' } : {});
    res.end(JSON.stringify({ name: 'agent' }));
  });
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => host.close(() => r())));

describe('probeUrl', () => {
  it('GETs the URL and reports the status without following redirects', async () => {
    statusOf.set('/ok', 200);
    statusOf.set('/moved', 302);
    expect(await probeUrl({ url: `${hostUrl}/ok`, timeoutMs: 2000, allowPrivate: true })).toMatchObject({ kind: 'response', status: 200 });
    expect(await probeUrl({ url: `${hostUrl}/moved`, timeoutMs: 2000, allowPrivate: true })).toMatchObject({ kind: 'response', status: 302 });
  });

  it('refuses private addresses unless allowed, before connecting', async () => {
    statusOf.set('/private', 200);
    const refused = await probeUrl({ url: `${hostUrl}/private`, timeoutMs: 2000, allowPrivate: false });
    expect(refused).toMatchObject({ kind: 'error' });
    expect(hits.get('/private')).toBeUndefined();
  });

  it('refuses a name that resolves to a private address', async () => {
    const result = await probeUrl({ url: 'http://agent.example.com/manifest', timeoutMs: 2000, allowPrivate: false, resolve: async () => ['10.1.2.3'] });
    expect(result).toMatchObject({ kind: 'error' });
    // The refusal names the host, not what it resolved to.
    if (result.kind === 'error') expect(result.error).toBe('the address of agent.example.com is not allowed (private, loopback or reserved)');
  });

  it('gives up at the deadline', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const result = await probeUrl({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, timeoutMs: 200, allowPrivate: true });
      expect(result).toMatchObject({ kind: 'error', error: 'timeout' });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});

describe('probing agents', () => {
  let server: TestServer;
  let owner: { apiKey: string };
  beforeAll(async () => {
    server = await startTestServer();
    owner = await server.createUser();
  });
  afterAll(() => server?.close());

  const createAgent = async (body: Record<string, unknown>) =>
    (await server.api.post('/v1/agents', { key: owner.apiKey, body: { endpoint: `${hostUrl}/tasks`, ...body } })).body.data.id as string;
  const health = async (id: string) => (await server.prisma.agent.findUniqueOrThrow({ where: { id } })).healthStatus;

  it('a manifest must answer 2xx; three failed probes in a row make the agent unhealthy', async () => {
    statusOf.set('/manifest-a', 200);
    const id = await createAgent({ name: 'Manifest Agent', manifestUrl: `${hostUrl}/manifest-a` });
    expect(await server.app.services.reputation.probeAgent(id)).toEqual({ ok: true, url: `${hostUrl}/manifest-a` });
    expect(await health(id)).toBe('healthy');

    statusOf.set('/manifest-a', 500);
    for (let i = 0; i < 2; i++) expect((await server.app.services.reputation.probeAgent(id))?.ok).toBe(false);
    expect(await health(id)).toBe('healthy');
    await server.app.services.reputation.probeAgent(id);
    expect(await health(id)).toBe('unhealthy');
    expect((await server.api.get(`/v1/discover/${id}`)).body.data.healthStatus).toBe('unhealthy');
  });

  it('without a manifest the endpoint is probed, and any answer below 500 shows a live server', async () => {
    statusOf.set('/tasks-b', 405);
    const id = await createAgent({ name: 'Endpoint Agent', endpoint: `${hostUrl}/tasks-b` });
    expect(await server.app.services.reputation.probeAgent(id)).toEqual({ ok: true, url: `${hostUrl}/tasks-b` });
    expect(await health(id)).toBe('healthy');
  });

  it('does not probe inactive agents', async () => {
    const id = await createAgent({ name: 'Resting Agent', status: 'inactive' });
    expect(await server.app.services.reputation.probeAgent(id)).toBeNull();
    expect(await health(id)).toBe('unknown');
  });

  it('follows the address policy: with private endpoints refused, the probe fails without a request', async () => {
    statusOf.set('/tasks-c', 200);
    const id = await createAgent({ name: 'Private Agent', endpoint: `${hostUrl}/tasks-c` });
    const { deps } = server.app.services;
    const strict = reputationService({ ...deps, config: { ...deps.config, allowPrivateEndpoints: false } }, { keepsIndex: false });
    expect(await strict.probeAgent(id)).toEqual({ ok: false, url: `${hostUrl}/tasks-c` });
    expect(hits.get('/tasks-c')).toBeUndefined();
    const agent = await server.prisma.agent.findUniqueOrThrow({ where: { id } });
    expect(agent).toMatchObject({ healthFailStreak: 1, healthStatus: 'unknown' });
  });
});

describe('the periodic sweep', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The default interval (15 minutes): the test makes the sweep's next run due instead of waiting for it.
    server = await startTestServer();
  });
  afterAll(async () => {
    // Stop rescheduling before the worker stops, so no sweep is in flight at shutdown.
    if (!server) return;
    await until('no health jobs left', async () => {
      const [{ left }] = await server.prisma.$queryRaw<[{ left: bigint }]>`
        SELECT count(graphile_worker.remove_job(key)) AS left FROM graphile_worker.jobs
        WHERE task_identifier IN ('health.sweep', 'health.probe')`;
      return left === 0n;
    });
    await server.close();
  });

  it('starts with the first agent and probes agents without being asked', async () => {
    statusOf.set('/manifest-d', 200);
    const owner = await server.createUser();
    const res = await server.api.post('/v1/agents', {
      key: owner.apiKey,
      body: { name: 'Watched Agent', endpoint: `${hostUrl}/tasks-d`, manifestUrl: `${hostUrl}/manifest-d` },
    });
    const id = res.body.data.id as string;
    await until('a probe by the sweep', async () => {
      await makeJobsDue(server.prisma, { name: 'health.sweep' });
      return (await server.prisma.agent.findUniqueOrThrow({ where: { id } })).healthStatus === 'healthy';
    }, 50_000);
    expect(hits.get('/manifest-d')).toBeGreaterThanOrEqual(1);
    // However often it was started, at most one sweep waits to run (the running one may be rescheduling).
    const [sweeps] = await server.prisma.$queryRaw<Array<{ waiting: bigint; all: bigint }>>`
      SELECT count(*) FILTER (WHERE locked_at IS NULL) AS waiting, count(*) AS all
      FROM graphile_worker.jobs WHERE task_identifier = 'health.sweep'`;
    expect(Number(sweeps!.waiting)).toBeLessThanOrEqual(1);
    expect(Number(sweeps!.all)).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
