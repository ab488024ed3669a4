// The service against the floor of its architecture (bench/floor/server.ts: the same lifecycle on `pg` and
// `node:http` alone), driven by the same requesters and the same agent in one run, on one scratch
// PostgreSQL database, interleaved round by round (the order alternates), with plain node:http as a
// second baseline. Free tasks, so no payment step: the floor has none.
//
//   npm run bench:floor -- [--seconds 15] [--rounds 3] [--requesters 32] [--postgres URL]
//
// Per round and per implementation: tasks per second in a closed loop (each requester creates a task and
// waits for its completion, then the next), service CPU per task, the create request's p50 under that
// load, and create → delivery p50/p99 in an open loop at 20 and at 2 tasks per second. It prints the
// medians over the rounds and the service's ratios to the floor.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { drive } from './http-load.js';
import { cpuSeconds, startAgent } from './lifecycle-agent.js';
import { percentile } from './measure.js';
import { freePort, startPlainServer, startService, stop, waitUntilUp } from './service.js';
import { bearer, registerAgent, scratchWorld } from './scratch.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    rounds: { type: 'string', default: '3' },
    requesters: { type: 'string', default: '32' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);
const requesters = Number(args.requesters);
if (![seconds, rounds, requesters].every((n) => Number.isInteger(n) && n >= 1) || seconds > 300 || rounds > 10 || requesters > 256) {
  console.error('usage: npm run bench:floor -- [--seconds S (1-300)] [--rounds N (1-10)] [--requesters N (1-256)] [--postgres URL]');
  process.exit(2);
}
const log = (message: string) => process.stderr.write(`${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

interface Target {
  name: 'floor' | 'service';
  base: string;
  pid: () => number;
}

interface Figures {
  perSecond: number;
  cpuMsPerTask: number;
  createP50: number;
  at20p50: number;
  at20p99: number;
  at2p50: number;
  at2p99: number;
}

async function main() {
  const world = await scratchWorld(args.postgres!, 'floor');
  const children: ChildProcess[] = [];
  const agent = startAgent();
  try {
    await new Promise<void>((resolve) => agent.server.listen(0, '127.0.0.1', resolve));
    const agentUrl = `http://127.0.0.1:${(agent.server.address() as { port: number }).port}/tasks`;

    const servicePort = await freePort();
    const serviceBase = `http://127.0.0.1:${servicePort}`;
    const { dataDir, secretKey } = world;
    const service = startService({
      databaseUrl: world.databaseUrl,
      dataDir,
      port: servicePort,
      env: { ALLOW_PRIVATE_ENDPOINTS: 'true', PUBLIC_BASE_URL: serviceBase, SECRET_KEY: secretKey },
    });
    children.push(service);
    log('service: starting');
    await waitUntilUp(`${serviceBase}/readyz`, service);

    const owner = world.createUser('owner');
    const requester = world.createUser('requester');
    const { webhookSecret } = await registerAgent(serviceBase, owner.apiKey, { name: 'Bench Echo', endpoint: agentUrl, capability: 'bench-echo' });
    agent.setSecret(webhookSecret);

    // The floor signs with the same secret and takes the requester's key, so the agent and the
    // requesters cannot tell the two apart.
    const floorPort = await freePort();
    const floor = spawn(process.execPath, ['--import', 'tsx', 'bench/floor/server.ts'], {
      env: { ...process.env, DATABASE_URL: world.databaseUrl, PORT: String(floorPort), AGENT_URL: agentUrl, WEBHOOK_SECRET: webhookSecret, API_KEY: requester.apiKey },
      stdio: 'inherit',
    });
    children.push(floor);
    log('floor: starting');
    await waitUntilUp(`http://127.0.0.1:${floorPort}/readyz`, floor);

    const plainPort = await freePort();
    const plain = startPlainServer(plainPort);
    children.push(plain);
    await waitUntilUp(`http://127.0.0.1:${plainPort}/`, plain);

    const targets: Target[] = [
      { name: 'floor', base: `http://127.0.0.1:${floorPort}`, pid: () => floor.pid! },
      { name: 'service', base: serviceBase, pid: () => service.pid! },
    ];

    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: requesters + 8, timeout: 4000 });
    let sequence = 0;
    // Creates one task; resolves with its id and how long the create request took.
    const createTask = (target: Target) =>
      new Promise<{ id: string; ms: number }>((resolve, reject) => {
        const body = JSON.stringify({ title: 'Echo', description: 'Echo the input back', capabilities: ['bench-echo'], input: { n: ++sequence } });
        const sent = performance.now();
        const req = http.request(`${target.base}/v1/tasks`, { method: 'POST', agent: keepAlive, headers: { ...bearer(requester.apiKey), 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => (text += c));
          res.on('end', () => {
            if (res.statusCode !== 201) return reject(new Error(`${target.name}: POST /v1/tasks answered ${res.statusCode}: ${text}`));
            resolve({ id: (JSON.parse(text) as { data: { id: string } }).data.id, ms: performance.now() - sent });
          });
        });
        req.on('error', reject);
        req.end(body);
      });

    const closedLoop = async (target: Target) => {
      const deadline = performance.now() + seconds * 1000;
      const answered: number[] = [];
      let done = 0;
      const cpu0 = cpuSeconds([target.pid()]);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: requesters }, async () => {
          while (performance.now() < deadline) {
            const { id, ms } = await createTask(target);
            answered.push(ms);
            await agent.completion(id);
            done++;
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      return { perSecond: done / elapsed, cpuMsPerTask: ((cpuSeconds([target.pid()]) - cpu0) * 1000) / done, createP50: median(answered) };
    };

    const openLoop = async (target: Target, perSecond: number) => {
      const count = Math.max(10, Math.floor(perSecond * seconds));
      const started = performance.now();
      const due = new Map<string, number>();
      const creating: Promise<void>[] = [];
      for (let i = 0; i < count; i++) {
        const at = started + (i * 1000) / perSecond;
        const wait = at - performance.now();
        if (wait > 0) await sleep(wait);
        creating.push(createTask(target).then(({ id }) => void due.set(id, at)));
      }
      await Promise.all(creating);
      for (let waited = 0; [...due.keys()].some((id) => !agent.receivedAt.has(id)) && waited < 30_000; waited += 50) await sleep(50);
      const latencies = [...due].filter(([id]) => agent.receivedAt.has(id)).map(([id, at]) => agent.receivedAt.get(id)! - at).sort((a, b) => a - b);
      await Promise.all([...due.keys()].map((id) => agent.completion(id)));
      if (latencies.length < count) throw new Error(`${target.name}: ${count - latencies.length} of ${count} tasks not delivered in 30 s`);
      return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
    };

    for (const target of targets) {
      log(`${target.name}: warm-up, 50 tasks`);
      for (let i = 0; i < 50; i++) await agent.completion((await createTask(target)).id);
    }

    const results: Record<Target['name'], Figures[]> = { floor: [], service: [] };
    const plainRates: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? targets : [...targets].reverse();
      log(`round ${round} of ${rounds}: node:http, then ${order.map((t) => t.name).join(', then ')}; ${seconds} s a phase`);
      plainRates.push((await drive(`http://127.0.0.1:${plainPort}`, ['/'], seconds * 1000, requesters)).perSecond);
      for (const target of order) {
        const loop = await closedLoop(target);
        const at20 = await openLoop(target, 20);
        const at2 = await openLoop(target, 2);
        results[target.name].push({ ...loop, at20p50: at20.p50, at20p99: at20.p99, at2p50: at2.p50, at2p99: at2.p99 });
        log(`  ${target.name}: ${loop.perSecond.toFixed(1)} tasks/s, ${loop.cpuMsPerTask.toFixed(2)} CPU ms/task`);
      }
    }

    const of = (name: Target['name'], key: keyof Figures) => median(results[name].map((r) => r[key]));
    const plainRate = median(plainRates);
    const row = (label: string, key: keyof Figures, digits: number, unit: string) => {
      const f = of('floor', key);
      const s = of('service', key);
      console.log(`| ${label} | ${f.toFixed(digits)}${unit} | ${s.toFixed(digits)}${unit} | ${(s / f).toFixed(2)}× |`);
    };
    console.log(`\nThe service against the floor: PostgreSQL, free tasks, ${requesters} closed-loop requesters, ${seconds} s a phase, medians of ${rounds} interleaved rounds\n`);
    console.log('| figure | the floor | this service | service / floor |');
    console.log('|---|---|---|---|');
    row('closed-loop tasks/s', 'perSecond', 1, '');
    row('service CPU per task', 'cpuMsPerTask', 2, ' ms');
    row(`create request p50 (${requesters} requesters)`, 'createP50', 1, ' ms');
    row('create → delivery p50 at 20 tasks/s', 'at20p50', 1, ' ms');
    row('create → delivery p99 at 20 tasks/s', 'at20p99', 1, ' ms');
    row('create → delivery p50 at 2 tasks/s', 'at2p50', 1, ' ms');
    row('create → delivery p99 at 2 tasks/s', 'at2p99', 1, ' ms');
    console.log(`\nplain node:http, ${requesters} connections: ${plainRate.toFixed(0)} requests/s; tasks/s as a ratio to it: floor ${(of('floor', 'perSecond') / plainRate).toFixed(4)}×, service ${(of('service', 'perSecond') / plainRate).toFixed(4)}×`);
    const twice = [...agent.deliveries.values()].filter((n) => n > 1).length;
    console.log(`deliveries with a bad signature: ${agent.rejected()}; tasks delivered more than once: ${twice}`);
    if (agent.rejected() || twice) process.exitCode = 1;
  } finally {
    for (const child of children) await stop(child);
    agent.server.close();
    await world.drop();
  }
}

await main();
