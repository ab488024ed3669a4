// The pieces the lifecycle benchmarks share: the paid or free agent on loopback that verifies each
// delivery and calls back at once, and the CPU time of processes read from /proc.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { callBack, verifyDelivery, type Delivery } from '../examples/agent/kit.js';

// The agent: verifies each delivery over its raw bytes, answers 200 at once, then calls back with a
// result. `hold` keeps the callback back until released (the per-step count needs the steps apart).
export function startAgent() {
  let secret = '';
  let hold: Promise<void> | null = null;
  const receivedAt = new Map<string, number>();
  // Deliveries per task: each should arrive exactly once (the agent answers 200 at once).
  const deliveries = new Map<string, number>();
  const completed = new Set<string>();
  const waiters = new Map<string, () => void>();
  let rejected = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      let delivery: Delivery;
      try {
        delivery = verifyDelivery({ rawBody: Buffer.concat(chunks), headers: req.headers, secret });
      } catch {
        rejected++;
        res.writeHead(401).end();
        return;
      }
      receivedAt.set(delivery.taskId, performance.now());
      deliveries.set(delivery.taskId, (deliveries.get(delivery.taskId) ?? 0) + 1);
      res.writeHead(200).end();
      if (hold) await hold;
      // On a loaded machine a callback can time out after the service completed the task: tried again,
      // a 409 then says the first one got through (only this agent completes its tasks).
      let answer = null;
      for (let attempt = 1; attempt <= 3 && !(answer && answer.status < 500); attempt++) {
        answer = await callBack(delivery, { result: { echo: delivery.input } }).catch(() => null);
      }
      if (answer?.status === 200 || answer?.status === 409) {
        completed.add(delivery.taskId);
        waiters.get(delivery.taskId)?.();
      }
    });
  });
  return {
    server,
    receivedAt,
    deliveries,
    rejected: () => rejected,
    setSecret: (s: string) => (secret = s),
    holdCallbacks(): () => void {
      let release!: () => void;
      hold = new Promise<void>((r) => (release = r));
      return () => {
        hold = null;
        release();
      };
    },
    completion(taskId: string): Promise<void> {
      if (completed.has(taskId)) return Promise.resolve();
      return new Promise((resolve) => waiters.set(taskId, resolve));
    },
  };
}

// CPU seconds (user + system) of processes, from /proc: the service and its children, or PostgreSQL's.
export function cpuSeconds(pids: number[]): number {
  const ticks = 100;
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / ticks;
    } catch {
      // The process ended between listing and reading.
    }
  }
  return total;
}

export function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('postgres');
      } catch {
        return false;
      }
    });
}
