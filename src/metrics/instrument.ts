// Wraps the parts whose work is measured (payment processor, search engine, event bus, job runner)
// so the code that uses them stays free of metrics calls.
import { EventEmitter } from 'node:events';
import type { WorkerEvents } from 'graphile-worker';
import type { Db } from '../db/client.js';
import { dueJobs } from '../db/job-locks.js';
import type { EventBus } from '../events/bus.js';
import type { PaymentProvider } from '../payments/provider.js';
import type { SearchEngine } from '../search/engine.js';
import type { Metrics, QueueState } from './metrics.js';

// Every processor call that returns a promise is a payment step, named after the method.
export function measurePaymentProvider(provider: PaymentProvider, metrics: Metrics): PaymentProvider {
  return new Proxy(provider, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.then(
          (ok) => (metrics.paymentSteps.inc({ step: property, outcome: 'ok' }), ok),
          (error: unknown) => {
            metrics.paymentSteps.inc({ step: property, outcome: 'error' });
            throw error;
          },
        );
      };
    },
  });
}

export function measureSearchEngine(engine: SearchEngine, metrics: Metrics): SearchEngine {
  return new Proxy(engine, {
    get(target, property, receiver) {
      if (property !== 'search') return Reflect.get(target, property, receiver);
      return async (...args: Parameters<SearchEngine['search']>) => {
        const end = metrics.searchDuration.startTimer({ engine: target.name });
        try {
          return await target.search(...args);
        } finally {
          end();
        }
      };
    },
  });
}

// Every task change is published once on the bus (after its commit, or by its transaction), so counting
// there counts each status change exactly once.
export function countTaskTransitions(bus: EventBus, metrics: Metrics): EventBus {
  return {
    notifyChannel: bus.notifyChannel,
    sentInTransaction: (event) => {
      metrics.taskTransitions.inc({ status: event.status });
      bus.sentInTransaction(event);
    },
    publish: async (event) => {
      metrics.taskTransitions.inc({ status: event.status });
      await bus.publish(event);
    },
    publishWork: (agentId) => bus.publishWork(agentId),
    publishRevokedKey: (apiKeyId) => bus.publishRevokedKey(apiKeyId),
    onRevokedKey: (listener) => bus.onRevokedKey(listener),
    watchSearchChanges: (listener) => bus.watchSearchChanges(listener),
    subscribe: (interest, signal) => bus.subscribe(interest, signal),
    count: () => bus.count(),
    endSubscriptions: () => bus.endSubscriptions(),
    close: () => bus.close(),
  };
}

// graphile-worker's events: a job that throws on its last attempt is out of attempts ("failed").
// Adds the metrics' listeners to the given emitter (tests listen to the same one), or to a new one.
export function jobEvents(metrics: Metrics, events: WorkerEvents = new EventEmitter() as WorkerEvents): WorkerEvents {
  const started = new Map<string, bigint>();
  const finish = (id: string, kind: string) => {
    const at = started.get(id);
    started.delete(id);
    if (at !== undefined) metrics.jobDuration.observe({ kind }, Number(process.hrtime.bigint() - at) / 1e9);
  };
  events.on('job:start', ({ job }) => void started.set(job.id, process.hrtime.bigint()));
  events.on('job:success', ({ job }) => {
    finish(job.id, job.task_identifier);
    metrics.jobs.inc({ kind: job.task_identifier, outcome: 'success' });
  });
  events.on('job:error', ({ job }) => {
    finish(job.id, job.task_identifier);
    metrics.jobs.inc({ kind: job.task_identifier, outcome: job.attempts >= job.max_attempts ? 'failed' : 'error' });
  });
  return events;
}

export function queueReader(db: Db): () => Promise<QueueState> {
  return () => dueJobs(db);
}
