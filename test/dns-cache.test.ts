// The outbound exchanges' DNS cache (delivery/dns-cache.ts) in front of the guarded request: an answer is
// used for 30 s on the service's clock, then asked for again; the address check runs on every exchange,
// cached answer or not; failures are not kept; the names kept are bounded; lookups under way are shared.
import dnsPromises from 'node:dns/promises';
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { testWith } from './support/fixtures.js';
import { startTestAgent } from './support/agent.js';
import { cachedResolver, DNS_CACHE_LIMITS } from '../src/delivery/dns-cache.js';
import { guardedRequest } from '../src/delivery/guarded-request.js';
import { notPublicMessage } from '../src/delivery/ip-policy.js';
import { checkEndpointUrl, type ResolveHost } from '../src/delivery/url-guard.js';

let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// A clock the test moves, and a resolver that counts its lookups and answers what the test says.
function world(answer: (hostname: string) => Promise<string[]> = async () => ['127.0.0.1']) {
  let nowMs = Date.parse('2026-11-29T12:00:00Z');
  const clock = { now: () => new Date(nowMs) };
  const asked: string[] = [];
  const counted: ResolveHost = (hostname) => {
    asked.push(hostname);
    return answer(hostname);
  };
  return { asked, resolve: cachedResolver(counted, clock), advance: (ms: number) => (nowMs += ms) };
}

const get = (url: string, resolve: ResolveHost, allowPrivate = true) =>
  guardedRequest({ method: 'GET', url, headers: {}, timeoutMs: 5_000, maxResponseBytes: 1024, allowPrivate, resolve });

test('a second exchange within the time looks nothing up; after it, the name is looked up again', async () => {
  const { asked, resolve, advance } = world();
  const url = `http://agent.example:${port}/`;
  expect(await get(url, resolve)).toMatchObject({ kind: 'response', status: 200 });
  advance(DNS_CACHE_LIMITS.ttlMs - 1);
  expect(await get(url, resolve)).toMatchObject({ kind: 'response', status: 200 });
  expect(asked).toEqual(['agent.example']);
  advance(1);
  expect(await get(url, resolve)).toMatchObject({ kind: 'response', status: 200 });
  expect(asked).toEqual(['agent.example', 'agent.example']);
});

test('a cached answer is checked on every exchange: a private address is refused without the policy off', async () => {
  const { asked, resolve } = world();
  const url = `http://agent.example:${port}/`;
  // Kept from an exchange made with the policy off (ALLOW_PRIVATE_ENDPOINTS).
  expect(await get(url, resolve, true)).toMatchObject({ kind: 'response', status: 200 });
  expect(await get(url, resolve, false)).toEqual({ kind: 'error', error: notPublicMessage('agent.example'), latencyMs: expect.any(Number) });
  expect(asked).toHaveLength(1);
});

test('a name whose answer turns private is refused once the kept answer expires', async () => {
  let addresses = ['93.184.216.34'];
  const { asked, resolve, advance } = world(async () => addresses);
  const url = `http://agent.example:${port}/`;
  expect((await checkEndpointUrl(url, { allowPrivate: false, resolve })).ok).toBe(true);
  addresses = ['10.0.0.1'];
  advance(DNS_CACHE_LIMITS.ttlMs);
  // Were the public answer still used, this exchange would be dialled to it.
  const refused = await get(url, resolve, false);
  expect(refused).toMatchObject({ kind: 'error', error: notPublicMessage('agent.example') });
  expect(asked).toHaveLength(2);
});

test('a failed lookup is not kept', async () => {
  let fails = true;
  const { asked, resolve } = world(async () => {
    if (fails) throw Object.assign(new Error('getaddrinfo ENOTFOUND agent.example'), { code: 'ENOTFOUND' });
    return ['127.0.0.1'];
  });
  const url = `http://agent.example:${port}/`;
  expect(await get(url, resolve)).toMatchObject({ kind: 'error', error: expect.stringMatching(/does not resolve/) });
  fails = false;
  expect(await get(url, resolve)).toMatchObject({ kind: 'response', status: 200 });
  expect(asked).toHaveLength(2);
});

test('exchanges with one name at once share one lookup', async () => {
  let answer!: (addresses: string[]) => void;
  const { asked, resolve } = world(() => new Promise<string[]>((settle) => (answer = settle)));
  const url = `http://agent.example:${port}/`;
  const exchanges = [get(url, resolve), get(url, resolve), get(url, resolve)];
  // Each exchange has asked by now: the first started the lookup, the others wait for it.
  await new Promise((resolve) => setImmediate(resolve));
  answer(['127.0.0.1']);
  for (const result of await Promise.all(exchanges)) expect(result).toMatchObject({ kind: 'response', status: 200 });
  expect(asked).toEqual(['agent.example']);
});

test('an IP literal is never looked up', async () => {
  const { asked, resolve } = world();
  expect(await get(`http://127.0.0.1:${port}/`, resolve)).toMatchObject({ kind: 'response', status: 200 });
  expect(asked).toEqual([]);
});

test('at most 1000 names are kept: past that the oldest answer is dropped', async () => {
  const { asked, resolve } = world(async () => ['93.184.216.34']);
  const names = Array.from({ length: DNS_CACHE_LIMITS.maxEntries + 1 }, (_, i) => `agent${i}.example`);
  for (const name of names) await resolve(name);
  expect(asked).toHaveLength(names.length);
  // The newest is still kept; the first, dropped to make room for it, is asked for again.
  await resolve(names.at(-1)!);
  expect(asked).toHaveLength(names.length);
  await resolve(names[0]!);
  expect(asked).toHaveLength(names.length + 1);
  expect(DNS_CACHE_LIMITS.maxEntries).toBe(1000);
});

// The service's own exchanges go through its cache (deps.resolveHost), on its clock: the system resolver
// is asked once for two pings of an agent within 30 s, and again once the clock has moved past them.
const serviceClock = { offsetMs: 0, now: () => new Date(Date.now() + serviceClock.offsetMs) };
const serviceTest = testWith({ serverTime: { clock: serviceClock } });

serviceTest('the service asks the system resolver once per name and 30 s', async ({ server, owner }) => {
  const agent = await startTestAgent();
  const systemLookup = dnsPromises.lookup;
  const asked: string[] = [];
  // The name the agent is registered under answers the agent's address; other names go to the system.
  dnsPromises.lookup = (async (hostname: string, options: object) => {
    if (hostname !== 'agent.example') return systemLookup(hostname, options);
    asked.push(hostname);
    return [{ address: '127.0.0.1', family: 4 }];
  }) as typeof dnsPromises.lookup;
  syncBuiltinESMExports();
  try {
    const endpoint = agent.url.replace('127.0.0.1', 'agent.example');
    const id = (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name: 'Named', endpoint } })).body.data.id as string;
    const ping = async () => (await server.api.post(`/v1/agents/${id}/webhook/test`, { key: owner.apiKey })).body.data;
    expect(await ping()).toMatchObject({ ok: true });
    expect(await ping()).toMatchObject({ ok: true });
    expect(asked).toEqual(['agent.example']);
    serviceClock.offsetMs += DNS_CACHE_LIMITS.ttlMs;
    expect(await ping()).toMatchObject({ ok: true });
    expect(asked).toEqual(['agent.example', 'agent.example']);
    expect(agent.received).toHaveLength(3);
  } finally {
    dnsPromises.lookup = systemLookup;
    syncBuiltinESMExports();
    await agent.close();
  }
});
