// The HTTP server around the router: each request is observed (access log, metrics) in its own request
// context, and an error that escapes a route is answered in the service's error shape, never as a stack.
import http from 'node:http';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics/metrics.js';
import { AppError, temporarilyUnavailable } from '../errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { isClientGone } from './client-gone.js';
import { observeRequest } from './observe-request.js';
import { runInRequest } from './request-context.js';
import { answerClientError, MAX_HEADER_BYTES } from './request-line.js';
import { sendAppError, sendError } from './respond.js';
import type { RequestHandler } from './router.js';

export function createHttpServer(route: RequestHandler, opts: { logger: Logger; metrics: Metrics }): http.Server {
  const { logger } = opts;
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const context = observeRequest(req, res, logger, opts.metrics);
    runInRequest(context, () => route(req, res)).catch((error: unknown) => {
      if (error instanceof AppError) return sendAppError(res, error);
      // Outside the request's context here: its id is named on the line.
      const where = { reqId: context.requestId, path: req.url?.split('?')[0] };
      // Before the database check: a reset connection of the client is not the database's.
      if (isClientGone(error, req)) {
        // A browser that navigated away, a client that timed out: nothing failed on this side.
        logger.debug({ ...where, reason: (error as Error).message }, 'client went away');
        return void res.destroy();
      }
      if (isDatabaseUnavailable(error) && !res.headersSent) {
        logger.warn({ err: error, ...where }, 'database unavailable');
        return sendAppError(res, temporarilyUnavailable());
      }
      logger.error({ err: error, ...where }, 'request failed');
      if (!res.headersSent) sendError(res, { code: 'INTERNAL', message: 'internal error' });
      else res.destroy();
    });
  });
  server.on('clientError', answerClientError);
  return server;
}
