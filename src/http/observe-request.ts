// The start of every request: its id (taken or made, sent back), and once the answer is out, its
// access line and HTTP metrics, labelled by the route template the handlers recorded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics/metrics.js';
import { logAccessWhenDone } from './access-log.js';
import { requestIdFrom, type RequestContext } from '../request-context.js';

export function observeRequest(req: IncomingMessage, res: ServerResponse, logger: Logger, metrics: Metrics): RequestContext {
  const context: RequestContext = { requestId: requestIdFrom(req.headers['x-request-id']), route: null, principalId: null };
  res.setHeader('x-request-id', context.requestId);
  logAccessWhenDone(logger, context, req, res, (ms) => {
    const method = req.method ?? 'GET';
    const route = context.route ?? 'unmatched';
    metrics.httpRequests.inc({ method, route, status: String(res.statusCode) });
    metrics.httpDuration.observe({ method, route }, ms / 1000);
  });
  return context;
}
