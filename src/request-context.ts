// What is known about the request being served, reachable from any code that runs on its behalf
// (resolvers, services, log lines) without passing it down by hand.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export interface RequestContext {
  requestId: string;
  // The route template (`/v1/tasks/:id`), not the raw path, so metrics and logs group by endpoint.
  route: string | null;
  principalId: string | null;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runInRequest<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

// A caller's id is kept when it is short and plain (it ends up in logs and headers); otherwise a new one.
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && ACCEPTABLE_ID.test(header) ? header : randomUUID();
}
