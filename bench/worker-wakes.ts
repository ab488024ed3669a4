// How often the job worker asks the database for jobs per task, end to end: free tasks created through
// POST /v1/tasks, delivered to an agent on loopback that calls back at once, completed. The worker asks
// when a new job's NOTIFY wakes it, when a worker is free and its local queue is empty, and at each poll;
// a wake for a job that is not due yet finds nothing to run. Counted on the wire
// (bench/pg-statement-counter.ts): every run of graphile-worker's get-jobs statement. Also the service
// process's CPU time per task over the same tasks (/proc; the counting proxy runs in this process).
//
//   npx tsx bench/worker-wakes.ts [--tasks 400] [--concurrency 4] [--postgres URL]
import { parseArgs } from 'node:util';
import { cpuSeconds, startAgent } from './lifecycle-agent.js';
import { startStatementCounter } from './pg-statement-counter.js';
import { bearer, okJson, registerAgent, scratchWorld } from './scratch.js';
import { freePort, startService, stop, waitUntilUp } from './service.js';

const { values: args } = parseArgs({
  options: {
    tasks: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '4' },
    postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test' },
  },
});
const tasks = Number(args.tasks);
const concurrency = Number(args.concurrency);
const log = (message: string) => process.stderr.write(`${message}\n`);
// graphile-worker's get-jobs statement (its sql/getJobs), as the counter records its first characters.
const isGetJobs = (text: string) => /^with j as \( select jobs\.job_queue_id/i.test(text);

async function main() {
  const world = await scratchWorld(args.postgres!, 'wakes');
  const server = new URL(args.postgres!);
  const counter = await startStatementCounter({ host: server.hostname, port: Number(server.port || 5432) });
  const proxied = new URL(world.databaseUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(counter.port);
  const agent = startAgent();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = startService({
    databaseUrl: proxied.toString(),
    dataDir: world.dataDir,
    port,
    env: { ALLOW_PRIVATE_ENDPOINTS: 'true', PUBLIC_BASE_URL: base, SECRET_KEY: world.secretKey },
  });
  try {
    await new Promise<void>((resolve) => agent.server.listen(0, '127.0.0.1', resolve));
    const agentUrl = `http://127.0.0.1:${(agent.server.address() as { port: number }).port}/tasks`;
    await waitUntilUp(`${base}/readyz`, service);
    const owner = world.createUser('owner');
    const requester = world.createUser('requester');
    const { webhookSecret } = await registerAgent(base, owner.apiKey, { name: 'Wakes Echo', endpoint: agentUrl, capability: 'wakes-echo' });
    agent.setSecret(webhookSecret);

    let sequence = 0;
    const task = async () => {
      const body = JSON.stringify({ title: 'Echo', description: 'Echo the input back', capabilities: ['wakes-echo'], input: { n: ++sequence } });
      const answer = await okJson(await fetch(`${base}/v1/tasks`, { method: 'POST', headers: bearer(requester.apiKey), body }));
      await agent.completion((answer.data as { id: string }).id);
    };
    log('warm-up: 20 tasks');
    for (let i = 0; i < 20; i++) await task();

    const recorder = counter.record();
    const start = performance.now();
    const cpu0 = cpuSeconds([service.pid!]);
    let left = tasks;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await task();
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const cpuUs = ((cpuSeconds([service.pid!]) - cpu0) * 1e6) / tasks;
    const texts = recorder.stop();
    const fetches = texts.filter(isGetJobs).length;
    console.log(`${tasks} free tasks (${concurrency} at a time) in ${seconds.toFixed(1)} s: ${fetches} worker fetches, ${(fetches / tasks).toFixed(2)} per task; ${texts.length} statements, ${(texts.length / tasks).toFixed(1)} per task; service CPU ${cpuUs.toFixed(0)} µs per task`);
  } finally {
    await stop(service);
    agent.server.close();
    await counter.close();
    await world.drop();
  }
}

await main();
