// One line per request once its answer has gone out: method, route template, status, time taken,
// request id (on every line through the logger's mixin) and the principal. The raw path and query
// string are left out: they may carry tokens.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { RequestContext } from '../request-context.js';

export function logAccessWhenDone(logger: Logger, context: RequestContext, req: IncomingMessage, res: ServerResponse, onDone?: (ms: number) => void): void {
  const started = process.hrtime.bigint();
  let logged = false;
  const done = () => {
    if (logged) return;
    logged = true;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    onDone?.(ms);
    const line = {
      method: req.method,
      route: context.route ?? 'unmatched',
      status: res.statusCode,
      ms: Math.round(ms * 10) / 10,
      principal: context.principalId ?? undefined,
      ...(res.writableFinished ? {} : { aborted: true }),
    };
    // The mixin cannot see the request's store from a 'finish' callback, so the id is added here.
    logger.info({ reqId: context.requestId, ...line }, 'request');
  };
  res.once('finish', done);
  res.once('close', done);
}
