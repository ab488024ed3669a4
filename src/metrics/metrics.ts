// The service's Prometheus metrics, one registry per running app (tests run several in one process).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface QueueState {
  // Jobs whose run time has come and that no worker holds.
  due: number;
  // Seconds the oldest of them has been waiting; 0 when none is.
  oldestDueSeconds: number;
}

export function createMetrics(opts: { defaults?: boolean } = {}) {
  const registry = new Registry();
  // The event loop's delay sampled every 100 ms, not prom-client's 10 ms: each sample wakes an idle
  // process, and on a virtual machine a wake-up costs tens of microseconds (an idle service used 16 ms
  // of CPU a second with 10 ms, 10 with 100: docs/benchmarks.md, "An idle service"). A stall still
  // delays the samples around it, so it still shows in the lag figures.
  if (opts.defaults) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  let readQueue: (() => Promise<QueueState>) | null = null;
  // Read at scrape time, so the gauges show the queue as it is now, not as some job last left it.
  const queue = async (): Promise<QueueState> => (readQueue ? readQueue().catch(() => ({ due: 0, oldestDueSeconds: 0 })) : { due: 0, oldestDueSeconds: 0 });

  // Every metric registers in this app's registry only.
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []) =>
    new Histogram<L>({ name, help, labelNames, buckets, registers: [registry] });
  const queueGauge = (name: string, help: string, read: (state: QueueState) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(read(await queue()));
      },
    });

  const metrics = {
    registry,
    httpRequests: counter('http_requests_total', 'HTTP requests by method, route template and status', ['method', 'route', 'status']),
    httpDuration: histogram('http_request_duration_seconds', 'Time from request to the end of the answer, by method and route template', seconds, ['method', 'route']),
    jobs: counter('jobs_total', 'Jobs run, by kind and outcome (success, error: will retry, failed: out of attempts)', ['kind', 'outcome']),
    jobDuration: histogram('job_duration_seconds', 'Time a job took, by kind', seconds, ['kind']),
    queueDepth: queueGauge('job_queue_due', 'Jobs due to run and not yet taken by a worker', (q) => q.due),
    queueOldest: queueGauge('job_queue_oldest_due_seconds', 'How long the oldest due job has waited', (q) => q.oldestDueSeconds),
    deliveries: counter('deliveries_total', 'Delivery attempts to agents, by outcome (delivered, retrying, given_up)', ['outcome']),
    deliveryDuration: histogram('delivery_duration_seconds', 'Time an agent took to answer a delivery attempt (or to fail it)', [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30]),
    taskTransitions: counter('task_status_changes_total', 'Task status changes, by the status entered', ['status']),
    paymentSteps: counter('payment_steps_total', 'Calls to the payment processor, by step and outcome', ['step', 'outcome']),
    searchDuration: histogram('search_duration_seconds', 'Time the search engine took to answer a discovery query, by engine', seconds, ['engine']),
    // Where the queue gauges read from (the database), once it is open.
    watchQueue(read: () => Promise<QueueState>) {
      readQueue = read;
    },
  };
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;
