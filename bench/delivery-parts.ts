// Where a delivery job's CPU goes, in process: the service's app on a scratch PostgreSQL database, its
// worker off, free tasks created through REST, then their deliveries attempted directly (no
// graphile-worker) to an agent in a process of its own that answers 200. Two measures, each the CPU time
// of this process (process.cpuUsage, user + system), medians of the rounds:
// - whole: `services.deliveries.attempt` per delivery, `--concurrency` at once (as the worker runs them);
// - parts: the same steps, each for all the round's deliveries before the next, each step's CPU apart:
//   the read with its claim, the payload and its signatures, the guarded POST, the record (one statement
//   for a quiet success).
// Then the pure pieces in a loop (no I/O): secrets opened, HMACs, the Ed25519 signature, the JSON.
//
//   node --semi-space-growth-factor=1 --heap-growing-percent=30 --import tsx bench/delivery-parts.ts [--tasks 300] [--rounds 3] [--concurrency 8] [--old DIR] [--postgres URL]
//
// --old DIR: the code before a change, alternated with this one round by round, e.g.
//   mkdir /tmp/old && git archive HEAD~1 src | tar -x -C /tmp/old && cp -r src/generated /tmp/old/src/ \
//     && ln -s "$PWD/node_modules" /tmp/old/node_modules
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort, stop, waitUntilUp } from './service.js';
import { bearer, registerAgent, scratchWorld } from './scratch.js';
import { percentile } from './measure.js';
import type { DeliveryHooks } from '../src/services/deliveries/index.js';

const { values: args } = parseArgs({
  options: {
    tasks: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
    loops: { type: 'string', default: '2000' },
    // A copy of the code before a change (its src/ beside a node_modules link), measured alternately with this one:
    // whole attempts through its services, and its POST and headers in the layers and pieces.
    old: { type: 'string' },
    // A V8 CPU profile of the whole attempts' phases (not the parts'), written to this file.
    profile: { type: 'string' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const tasks = Number(args.tasks);
const rounds = Number(args.rounds);
const concurrency = Number(args.concurrency);
const loops = Number(args.loops);
const log = (message: string) => process.stderr.write(`${message}\n`);
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

// The agent, in a process of its own so that its CPU is not counted: reads the body, answers 200.
const AGENT = `
const http = require('node:http');
http.createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(200).end()); })
  .listen(Number(process.env.PORT), '127.0.0.1');
`;

// The statements' texts and values as sent (captured on the way to the driver), for the layers' comparison.
const sent = new Map<string, { name?: string; text: string; values: unknown[] }>();
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  if (config && typeof config === 'object' && 'text' in config) {
    const c = config as { name?: string; text: string; values: unknown[] };
    if (c.name) sent.set(c.name, c);
  }
  return (clientQuery as (...a: unknown[]) => unknown).call(this, config, ...rest);
} as typeof pg.Client.prototype.query;

const world = await scratchWorld(args.postgres!, 'dparts');
const agentPort = await freePort();
const agentProcess = spawn(process.execPath, ['-e', AGENT], { env: { ...process.env, PORT: String(agentPort) }, stdio: 'inherit' });
const servicePort = await freePort();
const serviceBase = `http://127.0.0.1:${servicePort}`;
Object.assign(process.env, {
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: String(servicePort),
  DATA_DIR: world.dataDir,
  DATABASE_URL: world.databaseUrl,
  SECRET_KEY: world.secretKey,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
  HEALTH_PROBE_ENABLED: 'false',
  ALLOW_SIMULATED_PAYMENTS: 'true',
  ALLOW_OPEN_SIGNUP_WITHOUT_MAIL: 'true',
  ALLOW_PRIVATE_ENDPOINTS: 'true',
  PUBLIC_BASE_URL: serviceBase,
});
// Loaded after the environment is set: the config reads it.
const { loadConfig } = await import('../src/config.js');
const { createLogger } = await import('../src/logger.js');
const { openDatabase } = await import('../src/db/database.js');
const { loadServerKey } = await import('../src/crypto/server-key.js');
const { createApp } = await import('../src/app.js');
const store = await import('../src/stores/delivery-store.js');
const { sendsAtOnce } = await import('../src/services/deliveries/attempt.js');
const { claimMs } = await import('../src/services/deliveries/context.js');
const { record } = await import('../src/services/deliveries/record.js');
const { taskFiles, withFiles } = await import('../src/services/task-files.js');
const { buildDeliveryPayload, deliveryHeaders, serializePayload } = await import('../src/delivery/payload.js');
const { postWebhook } = await import('../src/delivery/http-client.js');
const { signServiceSignature, standardWebhookHeaders } = await import('../src/delivery/signing.js');

const old = args.old
  ? {
      createServices: (await import(`${args.old}/src/composition.ts`)).createServices as typeof import('../src/composition.js').createServices,
      postWebhook: (await import(`${args.old}/src/delivery/http-client.ts`)).postWebhook as typeof postWebhook,
      deliveryHeaders: (await import(`${args.old}/src/delivery/payload.ts`)).deliveryHeaders as typeof deliveryHeaders,
    }
  : null;
const config = loadConfig();
const logger = createLogger(config.logLevel, { pretty: false });
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, mode: 'own', preparedStatements: config.databasePreparedStatements, poolSize: config.databasePoolSize });
const serverKey = await loadServerKey({ secretKey: config.secretKey, dataDir: config.dataDir });
const app = await createApp({ config, database, logger, serverKey, runWorker: false });
const { services } = app;
const { deps } = services;
const oldServices = old ? old.createServices(deps) : null;
await new Promise<void>((resolve) => app.server.listen(servicePort, '127.0.0.1', resolve));
const db = new pg.Client({ connectionString: world.databaseUrl });

// The delivery service's context as composition.ts builds it, so that each step can be called apart.
const ctx = {
  deps,
  agents: services.agents,
  tasks: services.tasks,
  files: taskFiles(deps),
  hooks: {
    deliveryOutcome: (tx, agentId, ok) => services.reputation.deliveryOutcome(tx, agentId, ok),
    deliveryRecorded: (tx, recorded) => services.endpointHealth.deliveryRecorded(tx, recorded),
    deliveredWritesNothing: (agent, number, now) => {
      const health = services.reputation.successLeavesHealth(agent, now);
      const endpoint = services.endpointHealth.deliveredLeavesState(agent, number);
      return health && endpoint ? { health, endpointChanges: endpoint } : null;
    },
  } satisfies DeliveryHooks,
};

let job = 0;
type Parts = { read: number; build: number; post: number; record: number };

// The deliveries' attempts step by step: each step for all of them (`concurrency` at once) before the
// next, each step's CPU per delivery apart.
async function attemptsInParts(deliveryIds: string[]): Promise<Parts> {
  const now = () => deps.clock.now();
  const phase = async <I, O>(items: I[], step: (item: I) => Promise<O>): Promise<{ out: O[]; us: number }> => {
    const out: O[] = new Array(items.length);
    let next = 0;
    const c0 = cpuUs();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < items.length; i = next++) out[i] = await step(items[i]!);
      }),
    );
    return { out, us: (cpuUs() - c0) / items.length };
  };
  const read = await phase(deliveryIds, async (deliveryId) => {
    const r = await store.claimAndRead(deps.sql, { deliveryId, jobId: `parts-${++job}`, claimMs: claimMs(ctx), now: now() }, sendsAtOnce);
    if (!r || r.number === null) throw new Error(`delivery ${deliveryId} was not claimed`);
    return r;
  });
  const build = await phase(read.out, async (r) => {
    const { task, agent, delivery } = r;
    const token = services.tasks.tokenFor(task)!;
    const callbackUrl = services.tasks.callbackUrl(task.id);
    const body = serializePayload(withFiles(buildDeliveryPayload(task, token, callbackUrl), await ctx.files.links(task)));
    const headers = deliveryHeaders({
      taskId: task.id,
      event: delivery.type,
      callbackUrl,
      now: now(),
      secret: services.agents.webhookSecretOf(agent),
      previousSecrets: services.agents.previousWebhookSecretsOf(agent),
      signingKeys: services.agents.signingKeysOf(agent),
      deliveryId: delivery.id,
      body,
    });
    return { r, body, headers };
  });
  const post = await phase(build.out, async (b) => ({
    ...b,
    result: await postWebhook({ url: b.r.agent.endpoint, body: b.body, headers: b.headers, timeoutMs: config.deliveryTimeoutMs, allowPrivate: config.allowPrivateEndpoints, resolve: deps.resolveHost }),
  }));
  const half = Math.floor(post.out.length / 2);
  const recorded = await phase(post.out.slice(0, half), async ({ r, result }) => {
    const { task, agent, delivery } = r;
    await record(ctx, { deliveryId: delivery.id, number: r.number!, taskId: task.id, agentId: agent.id, expiresAt: task.expiresAt, task, agent }, result);
  });
  // The other half: the quiet success's statement alone (what record sends for these), without the rest of record.
  const { newId } = await import('../src/ids.js');
  const statementAlone = await phase(post.out.slice(half), async ({ r, result }) => {
    const { task, agent, delivery } = r;
    const at = now();
    const unchanged = ctx.hooks.deliveredWritesNothing(agent, r.number!, at)!;
    const move = services.tasks.deliveredMove(task.id, task)!;
    const a = { id: newId('att'), deliveryId: delivery.id, number: r.number!, statusCode: result.kind === 'response' ? result.status : null, latencyMs: Math.round(result.latencyMs), at, error: null };
    if (!(await store.recordDelivered(deps.sql, a, move.write, { id: agent.id, ...unchanged }))) throw new Error('not recorded');
  });
  log(`record ${recorded.us.toFixed(0)} µs, its statement alone ${statementAlone.us.toFixed(0)} µs`);
  return { read: read.us, build: build.us, post: post.us, record: recorded.us };
}

async function createTasks(requesterKey: string, count: number): Promise<string[]> {
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let made = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < count) {
        made++;
        await new Promise<void>((resolve, reject) => {
          const body = JSON.stringify({ title: 'Echo', description: 'Echo the input back', capabilities: ['parts-echo'], input: { n: made } });
          const req = http.request(`${serviceBase}/v1/tasks`, { method: 'POST', agent: keepAlive, headers: { ...bearer(requesterKey), 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
            res.resume();
            res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`create: ${res.statusCode}`))));
          });
          req.on('error', reject);
          req.end(body);
        });
      }
    }),
  );
  keepAlive.destroy();
  const rows = await db.query<{ id: string }>(`SELECT id FROM deliveries WHERE status = 'pending' AND attempt_count = 0 ORDER BY created_at, id`);
  return rows.rows.map((r) => r.id);
}

try {
  await waitUntilUp(`http://127.0.0.1:${agentPort}/`, agentProcess).catch(() => undefined);
  await db.connect();
  const owner = world.createUser('owner');
  const requester = world.createUser('requester');
  await registerAgent(serviceBase, owner.apiKey, { name: 'Parts Echo', endpoint: `http://127.0.0.1:${agentPort}/tasks`, capability: 'parts-echo' });

  const session = args.profile ? new Session() : null;
  session?.connect();
  await session?.post('Profiler.enable');
  const whole: number[] = [];
  const wholeOld: number[] = [];
  const parts: Parts[] = [];
  const wholeRound = async (count: number, attempt: (id: string, jobId: string) => Promise<void>) => {
    const ids = await createTasks(requester.apiKey, count);
    let next = 0;
    const c0 = cpuUs();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let id = ids[next++]; id; id = ids[next++]) await attempt(id, `whole-${++job}`);
      }),
    );
    return (cpuUs() - c0) / ids.length;
  };
  // A warm-up round of each, then the rounds.
  for (let round = 0; round <= rounds; round++) {
    const count = round === 0 ? Math.min(100, tasks) : tasks;
    let ids = await createTasks(requester.apiKey, count);
    let next = 0;
    if (round === 1) await session?.post('Profiler.start');
    const c0 = cpuUs();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let id = ids[next++]; id; id = ids[next++]) await services.deliveries.attempt(id, `whole-${++job}`);
      }),
    );
    const wholeUs = (cpuUs() - c0) / ids.length;
    if (round === 1 && session) await writeFile(args.profile!, JSON.stringify((await session.post('Profiler.stop')).profile));
    if (oldServices) {
      // Old and new alternated: this round's new figure above, then the old code's, then new again.
      const o = await wholeRound(count, (id, jobId) => oldServices.deliveries.attempt(id, jobId));
      const n = await wholeRound(count, (id, jobId) => services.deliveries.attempt(id, jobId));
      if (round > 0) {
        wholeOld.push(o);
        whole.push(n);
        log(`round ${round}: whole new ${wholeUs.toFixed(0)} / ${n.toFixed(0)} µs, old ${o.toFixed(0)} µs`);
      }
      if (round > 0) whole.push(wholeUs);
      continue;
    }
    ids = await createTasks(requester.apiKey, count);
    const p = await attemptsInParts(ids);
    if (round === 0) continue;
    whole.push(wholeUs);
    parts.push(p);
    log(`round ${round}: whole ${wholeUs.toFixed(0)} µs; parts ${Object.entries(p).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
  }

  // The pure pieces, in a loop on one delivery as read.
  const [someId] = await createTasks(requester.apiKey, 1);
  const read = (await store.claimAndRead(deps.sql, { deliveryId: someId!, jobId: 'pieces', claimMs: 60_000, now: new Date() }, sendsAtOnce))!;
  const { task, agent } = read;
  const secret = services.agents.webhookSecretOf(agent)!;
  const keys = services.agents.signingKeysOf(agent);
  const token = services.tasks.tokenFor(task)!;
  const callbackUrl = services.tasks.callbackUrl(task.id);
  const body = serializePayload(buildDeliveryPayload(task, token, callbackUrl));
  const pieces: Record<string, () => unknown> = {
    'secret opened (AES-GCM)': () => services.agents.webhookSecretOf(agent),
    'signing key opened (AES-GCM)': () => services.agents.signingKeysOf(agent),
    'task token': () => services.tasks.tokenFor(task),
    'payload built and serialised': () => serializePayload(buildDeliveryPayload(task, token, callbackUrl)),
    'X-Service-Signature (HMAC)': () => signServiceSignature(secret, body),
    'Standard Webhooks v1 (HMAC) only': () => standardWebhookHeaders(secret, someId!, 1_700_000_000, body),
    'Standard Webhooks v1 + v1a (Ed25519)': () => standardWebhookHeaders(secret, someId!, 1_700_000_000, body, keys),
    ...(old
      ? {
          'deliveryHeaders (old code)': () =>
            old.deliveryHeaders({ taskId: task.id, event: 'task.assigned', callbackUrl, now: new Date(), secret, previousSecrets: [], signingKeys: keys, deliveryId: someId!, body }),
        }
      : {}),
    'deliveryHeaders (all of it)': () =>
      deliveryHeaders({ taskId: task.id, event: 'task.assigned', callbackUrl, now: new Date(), secret, previousSecrets: [], signingKeys: keys, deliveryId: someId!, body }),
  };
  // The record's statement as the store compiles it for a call (its shape already compiled), sent nowhere.
  {
    const { newId } = await import('../src/ids.js');
    const at = new Date();
    const unchanged = ctx.hooks.deliveredWritesNothing(agent, 1, at)!;
    const move = services.tasks.deliveredMove(task.id, { ...task, status: 'matched' })!;
    const a = { id: newId('att'), deliveryId: someId!, number: 1, statusCode: 200, latencyMs: 1, at, error: null };
    const row = { id: task.id, status: 'in_progress', requesterId: requester.id, agentId: agent.id, released: 1 };
    const nowhere = { executeQuery: async () => ({ rows: [row] }) } as unknown as typeof deps.sql;
    pieces['record statement compiled for a call (sent nowhere)'] = () => store.recordDelivered(nowhere, a, move.write, { id: agent.id, ...unchanged });
    pieces['record: deliveredWritesNothing + deliveredMove'] = () => [ctx.hooks.deliveredWritesNothing(agent, 1, at), services.tasks.deliveredMove(task.id, { ...task, status: 'matched' })];
  }
  const pieceUs: Record<string, number[]> = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(pieces)) {
      for (let i = 0; i < 200; i++) fn();
      const c = cpuUs();
      for (let i = 0; i < loops; i++) fn();
      (pieceUs[name] ??= []).push((cpuUs() - c) / loops);
    }
  }

  // The layers: the read's statement through Kysely and the driver as the store sends it, against the
  // same named statement on a bare pg pool; the guarded POST against a bare node:http request.
  const readSent = [...sent.values()].find((c) => c.text.startsWith('with "r" as'))!;
  const recordSent = [...sent.values()].find((c) => c.text.includes('insert into "delivery_attempts"') && c.text.includes('"released"'))!;
  if (process.env.SHOW_SQL) for (const c of [readSent, recordSent]) log(`${c.name}: ${c.text}\n${JSON.stringify(c.values)}`);
  const readSelect = readSent.text.slice('with "r" as ('.length, readSent.text.indexOf('), "c" as ('));
  const bare = new pg.Pool({ connectionString: world.databaseUrl, max: 10 });
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const bareBody = body;
  const bareHeaders = deliveryHeaders({ taskId: task.id, event: 'task.assigned', callbackUrl, now: new Date(), secret, previousSecrets: [], signingKeys: keys, deliveryId: someId!, body });
  const barePost = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(agent.endpoint, { method: 'POST', agent: keepAlive, headers: { ...bareHeaders, 'content-length': String(bareBody.length) } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(bareBody);
    });
  const { CompiledQuery } = await import('kysely');
  const eventText = JSON.stringify({ taskId: task.id, status: 'in_progress', requesterId: requester.id, agentOwnerId: owner.id, agentId: agent.id });
  const layers: Record<string, () => Promise<unknown>> = {
    'read statement: bare pg (named)': () => bare.query({ name: readSent.name, text: readSent.text, values: readSent.values }),
    // The read's select alone (the `r` part, no claim): what the claim's write adds to the process's CPU.
    'read statement, its select alone: bare pg (named)': () => bare.query({ name: `${readSent.name}.r`, text: readSelect, values: readSent.values.slice(0, 4) }),
    'read statement: Kysely executeQuery': () => deps.sql.executeQuery(CompiledQuery.raw(readSent.text, readSent.values)),
    'read statement: store.claimAndRead': () => store.claimAndRead(deps.sql, { deliveryId: someId!, jobId: 'pieces', claimMs: 60_000, now: new Date() }, sendsAtOnce),
    'record statement text: bare pg (named)': () => bare.query({ name: recordSent.name, text: recordSent.text, values: recordSent.values }),
    'record statement text: Kysely executeQuery': () => deps.sql.executeQuery(CompiledQuery.raw(recordSent.text, recordSent.values)),
    // A task event as the record's statement sends it (pg_notify), heard by the service's bus, against one
    // on a channel no one listens to: what hearing its own events costs the process.
    'NOTIFY task_events (heard by the bus)': () => bare.query('select pg_notify($1, $2)', ['task_events', eventText]),
    'NOTIFY on a channel no one hears': () => bare.query('select pg_notify($1, $2)', ['bench_unheard', eventText]),
    'POST: bare node:http': barePost,
    ...(old ? { 'POST: postWebhook (old code)': () => old.postWebhook({ url: agent.endpoint, body, headers: bareHeaders, timeoutMs: 10_000, allowPrivate: true, resolve: deps.resolveHost }) } : {}),
    'POST: postWebhook': () => postWebhook({ url: agent.endpoint, body, headers: bareHeaders, timeoutMs: 10_000, allowPrivate: true, resolve: deps.resolveHost }),
  };
  const layerUs: Record<string, number[]> = {};
  const layerCount = 1000;
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(layers)) {
      for (let i = 0; i < 100; i++) await fn();
      let left = layerCount;
      const c = cpuUs();
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await fn();
      }));
      (layerUs[name] ??= []).push((cpuUs() - c) / layerCount);
    }
  }
  await bare.end();
  keepAlive.destroy();

  console.log(`\nA delivery attempt's CPU in process, µs (medians of ${rounds} rounds of ${tasks}; no graphile-worker)\n`);
  console.log(`| measure | µs |`);
  console.log(`|---|---|`);
  console.log(`| whole attempt, ${concurrency} at once | ${median(whole).toFixed(0)} |`);
  if (wholeOld.length) console.log(`| whole attempt, ${concurrency} at once, old code | ${median(wholeOld).toFixed(0)} |`);
  if (parts.length) {
    for (const k of ['read', 'build', 'post', 'record'] as const) console.log(`| part, ${concurrency} at once, all deliveries' step before the next: ${k} | ${median(parts.map((p) => p[k])).toFixed(0)} |`);
    console.log(`| parts' sum | ${median(parts.map((p) => p.read + p.build + p.post + p.record)).toFixed(0)} |`);
  }
  for (const [name, values] of Object.entries(pieceUs)) console.log(`| piece: ${name} | ${median(values).toFixed(1)} |`);
  for (const [name, values] of Object.entries(layerUs)) console.log(`| ${concurrency} at once, ${name} | ${median(values).toFixed(1)} |`);
} finally {
  await db.end().catch(() => undefined);
  await app.close().catch(() => undefined);
  await database.close().catch(() => undefined);
  await stop(agentProcess);
  await world.drop();
}
