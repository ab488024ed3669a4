// GET /healthz (the process answers: nothing else is done, it is the cheapest request the service
// serves), GET /readyz (it should be sent traffic: the database answers and it is not shutting down)
// and GET /metrics (Prometheus' text, behind METRICS_TOKEN when that is set: http/metrics-access.ts).
import type { Metrics } from '../metrics/metrics.js';
import type { HttpRoute } from './route.js';
import { metricsAccess } from './metrics-access.js';
import { sendError, sendJson } from './respond.js';

const status = (values: string[], error: boolean) => ({
  type: 'object',
  properties: {
    status: { type: 'string', enum: values },
    ...(error ? { error: { type: 'object', properties: { code: { type: 'string', enum: ['UNAVAILABLE'] }, message: { type: 'string' } }, required: ['code', 'message'] } } : {}),
  },
  required: error ? ['status', 'error'] : ['status'],
});
const json = (schema: unknown) => ({ 'application/json': { schema } });

export function healthRoutes(opts: {
  metrics: Metrics;
  metricsToken: string | null;
  // Whether the database answers (for /readyz).
  databaseReachable(): Promise<boolean>;
  // The process is shutting down: /readyz says so while requests are still served.
  draining(): boolean;
}): HttpRoute[] {
  const mayScrape = metricsAccess(opts.metricsToken);
  return [
    {
      method: 'GET',
      path: '/healthz',
      head: true,
      credential: 'public',
      admission: 'none',
      openapi: {
        operationId: 'Health',
        summary: 'Whether the process answers (liveness)',
        tags: ['health'],
        security: [],
        responses: { '200': { description: 'The process answers', content: json(status(['ok'], false)) } },
      },
      async handle({ res }) {
        sendJson(res, 200, { status: 'ok' });
      },
    },
    {
      method: 'GET',
      path: '/readyz',
      head: true,
      credential: 'public',
      admission: 'none',
      openapi: {
        operationId: 'Readiness',
        summary: 'Whether the process should be sent traffic (readiness)',
        tags: ['health'],
        security: [],
        responses: {
          '200': { description: 'The database answers', content: json(status(['ready'], false)) },
          '503': { description: 'Shutting down (draining) or the database does not answer (unavailable)', content: json(status(['draining', 'unavailable'], true)) },
        },
      },
      async handle({ res }) {
        if (opts.draining()) return sendJson(res, 503, { status: 'draining', error: { code: 'UNAVAILABLE', message: 'shutting down' } });
        if (await opts.databaseReachable()) return sendJson(res, 200, { status: 'ready' });
        sendJson(res, 503, { status: 'unavailable', error: { code: 'UNAVAILABLE', message: 'database unreachable' } });
      },
    },
    {
      method: 'GET',
      path: '/metrics',
      head: true,
      // The bearer token here is METRICS_TOKEN, never an API key: the route compares it itself.
      credential: 'own',
      admission: 'none',
      openapi: {
        operationId: 'Metrics',
        summary: 'Prometheus metrics; with METRICS_TOKEN set, only for Authorization: Bearer <METRICS_TOKEN>',
        tags: ['health'],
        security: [{ metricsToken: [] }, {}],
        responses: {
          '200': { description: 'The Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } },
          '401': { description: 'METRICS_TOKEN is set and the request does not carry it (UNAUTHENTICATED)', content: json({ $ref: '#/components/schemas/Error' }) },
        },
      },
      async handle({ req, res }) {
        if (!mayScrape(req.headers.authorization)) {
          return sendError(res, { code: 'UNAUTHENTICATED', message: 'the metrics need the bearer token set in METRICS_TOKEN' }, { 'www-authenticate': 'Bearer' });
        }
        res.writeHead(200, { 'content-type': opts.metrics.registry.contentType });
        res.end(await opts.metrics.registry.metrics());
      },
    },
  ];
}
