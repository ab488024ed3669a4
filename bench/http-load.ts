// Load for the HTTP benchmarks: keep-alive clients sending GETs for a fixed time (closed loop), or GETs
// sent on a fixed schedule (open loop), with the rate and latency percentiles of the run.
import http from 'node:http';
import { percentile } from './measure.js';

export interface Load {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

// GETs the URL and resolves with the status once the whole answer has arrived.
function statusOf(url: string, agent: http.Agent): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

// The figures of one run that began at `started` (performance.now()).
function loadOf(latencies: number[], errors: number, started: number): Load {
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, perSecond: latencies.length / elapsed, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), errors };
}

// Keep-alive clients, each sending its next request as soon as the last is answered.
export async function drive(base: string, paths: string[], durationMs: number, clients: number): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const get = (p: string) => statusOf(`${base}${p}`, agent);
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const p = paths[next++ % paths.length]!;
        const t = performance.now();
        const status = await get(p).catch(() => 0);
        latencies.push(performance.now() - t);
        if (status !== 200) errors++;
      }
    }),
  );
  agent.destroy();
  return loadOf(latencies, errors, started);
}

// Latency at a given load: requests go out on a fixed schedule whatever the answers (an open loop, as
// production traffic arrives), and each one's latency counts from when it was due, so a slow answer
// cannot hide the requests that should have followed it. At full load (drive above) latency is set by
// the queue: with C requests always in flight, the mean is C divided by the rate, whatever the search.
export async function driveAtRate(base: string, paths: string[], perSecond: number, durationMs: number): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  let errors = 0;
  const get = (p: string) => statusOf(`${base}${p}`, agent);
  const count = Math.floor((perSecond * durationMs) / 1000);
  const started = performance.now();
  const answers: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    answers.push(
      get(paths[i % paths.length]!)
        .catch(() => 0)
        .then((status) => {
          latencies.push(performance.now() - due);
          if (status !== 200) errors++;
        }),
    );
  }
  await Promise.all(answers);
  agent.destroy();
  return loadOf(latencies, errors, started);
}
