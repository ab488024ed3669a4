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
  if (opts.defaults) collectDefaultMetrics({ register: registry });
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  let readQueue: (() => Promise<QueueState>) | null = null;
  // Read at scrape time, so the gauges show the queue as it is now, not as some job last left it.
  const queue = async (): Promise<QueueState> => (readQueue ? readQueue().catch(() => ({ due: 0, oldestDueSeconds: 0 })) : { due: 0, oldestDueSeconds: 0 });

  const metrics = {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, route template and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to the end of the answer, by method and route template',
      labelNames: ['method', 'route'] as const,
      buckets: seconds,
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'jobs_total',
      help: 'Jobs run, by kind and outcome (success, error: will retry, failed: out of attempts)',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'job_duration_seconds',
      help: 'Time a job took, by kind',
      labelNames: ['kind'] as const,
      buckets: seconds,
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: 'job_queue_due',
      help: 'Jobs due to run and not yet taken by a worker',
      registers: [registry],
      async collect() {
        this.set((await queue()).due);
      },
    }),
    queueOldest: new Gauge({
      name: 'job_queue_oldest_due_seconds',
      help: 'How long the oldest due job has waited',
      registers: [registry],
      async collect() {
        this.set((await queue()).oldestDueSeconds);
      },
    }),
    deliveries: new Counter({
      name: 'deliveries_total',
      help: 'Delivery attempts to agents, by outcome (delivered, retrying, given_up)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    deliveryDuration: new Histogram({
      name: 'delivery_duration_seconds',
      help: 'Time an agent took to answer a delivery attempt (or to fail it)',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
      registers: [registry],
    }),
    taskTransitions: new Counter({
      name: 'task_status_changes_total',
      help: 'Task status changes, by the status entered',
      labelNames: ['status'] as const,
      registers: [registry],
    }),
    paymentSteps: new Counter({
      name: 'payment_steps_total',
      help: 'Calls to the payment processor, by step and outcome',
      labelNames: ['step', 'outcome'] as const,
      registers: [registry],
    }),
    searchDuration: new Histogram({
      name: 'search_duration_seconds',
      help: 'Time the search engine took to answer a discovery query, by engine',
      labelNames: ['engine'] as const,
      buckets: seconds,
      registers: [registry],
    }),
    // Where the queue gauges read from (the database), once it is open.
    watchQueue(read: () => Promise<QueueState>) {
      readQueue = read;
    },
  };
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;
