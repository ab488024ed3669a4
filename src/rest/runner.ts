// Runs a /v1 request: finds its route, reads and checks the body, executes the route's GraphQL document
// through the same envelop pipeline as /graphql (same authentication, limits, input guard and error
// masking: graphql/operation.ts) and shapes the answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { print, type GraphQLError, type GraphQLInputType } from 'graphql';
import { AppError, invalid, type ErrorCode } from '../errors.js';
import { isJsonContentType, readBody } from '../http/body.js';
import { startIdempotentRequest, type IdempotencyStart } from '../http/idempotency.js';
import { retryAfterHeader, sendAppError, sendError, sendJson } from '../http/respond.js';
import type { Authentication } from '../services/accounts/authenticate.js';
import { credentialOf, sessionCookieName } from '../auth/session-cookie.js';
import { unsafeInput } from '../services/unsafe-input.js';
import { currentRequest } from '../request-context.js';
import type { RestRequest, Route } from './route.js';
import type { RunOperation } from '../graphql/operation.js';
import type { Context } from '../schema/context.js';
import { schema } from '../schema/index.js';
import { answerOf } from './shape.js';
import { checkVariables, queryVariables, restField, variableTypes } from './variables.js';

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
  query: string;
  types: Map<string, GraphQLInputType>;
}

export function compileRoutes(routes: Route[]): CompiledRoute[] {
  return routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/:(\w+)/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { route, names, pattern: new RegExp(`^${source}/?$`), query: print(route.document), types: variableTypes(schema, route.document) };
  });
}

// An error of the document's run, as the REST error: a field named after its argument is named as the
// client sent it (a query parameter's name).
function errorFromGraphQL(route: Route, error: GraphQLError): { code: ErrorCode; message: string; field?: string; details?: Record<string, unknown> } {
  const code = error.extensions?.code;
  if (code === 'INTERNAL_SERVER_ERROR') return { code: 'INTERNAL', message: 'internal error' };
  if (typeof code !== 'string' || code === 'BAD_USER_INPUT' || code === 'GRAPHQL_VALIDATION_FAILED') {
    // The variables were checked before the run (checkVariables), so this is not the client's field;
    // graphql-js's own wording would speak of the layer beneath REST.
    return { code: 'INVALID_INPUT', message: 'the request does not match what this endpoint takes', field: 'body' };
  }
  // Extra facts of the error (such as a task's current status on a 409) stay beside code and message.
  const { code: _code, field, http: _http, ...details } = error.extensions ?? {};
  return { code: code as ErrorCode, message: error.message, field: typeof field === 'string' ? restField(route, field) : undefined, details };
}

// The variables the route's description implies: path parameters named like a variable, the body as
// $input (request.body 'input') or its listed fields (a missing one as null, so GraphQL names it as
// required), and the query parameters (request.query).
function impliedVariables(c: CompiledRoute, req: RestRequest): Record<string, unknown> {
  const variables: Record<string, unknown> = Object.fromEntries(Object.entries(req.params).filter(([name]) => c.types.has(name)));
  const body = c.route.request?.body;
  if (body === 'input') variables.input = req.body ?? {};
  else for (const field of body ?? []) variables[field] = req.body?.[field] ?? null;
  return { ...variables, ...queryVariables(c.route, req.query, c.types) };
}

function decodePathSegment(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw invalid(name, `${name} is not validly percent-encoded`);
  }
}

// Path parameters, query parameters and the body, checked before anything uses them (services/unsafe-input.ts).
function checkSafe(params: Record<string, string>, query: URLSearchParams, body: Record<string, unknown> | undefined): void {
  const problem =
    unsafeInput(params, '') ?? [...query].map(([name, value]) => unsafeInput(value, name)).find((p) => p !== null) ?? unsafeInput(body ?? null, '');
  if (problem) throw problem;
}

// What a route answers: its status and body, or its error as REST states it (code, message, field).
export type RouteOutcome =
  | { status: number; body: unknown }
  | { error: { code: ErrorCode; message: string; field?: string; details?: Record<string, unknown> }; headers: Record<string, string> };

// Runs one route on an already read request. Input errors found before the run throw (AppError).
async function runCompiled(runOperation: RunOperation, c: CompiledRoute, req: RestRequest, context: Context): Promise<RouteOutcome> {
  const variables = { ...impliedVariables(c, req), ...c.route.variables?.(req) };
  checkVariables(c.route, c.types, variables);
  const result = await runOperation(c.query, variables, context);
  if (result.errors?.length) return { error: errorFromGraphQL(c.route, result.errors[0]!), headers: retryAfterHeader(result.errors[0]!) };
  return { status: c.route.answer.status ?? 200, body: answerOf(c.route.answer.body, result.data, req.params) };
}

// Runs routes of the table for the other transports (MCP, A2A), which name them as objects (rest/routes/
// operations.ts), so they answer what REST answers, errors included.
export type RouteExecutor = (route: Route, req: Partial<RestRequest>, context: Context) => Promise<RouteOutcome>;

export function createRouteExecutor(opts: { runOperation: RunOperation; routes: Route[] }): RouteExecutor {
  const compiled = new Map(compileRoutes(opts.routes).map((c) => [c.route, c]));
  return async (route, req, context) => {
    const c = compiled.get(route);
    // Every operation is in the table (test/unit/operations.test.ts); this is a wiring mistake.
    if (!c) throw new Error(`the route ${route.method} ${route.path} is not in the REST table`);
    const full: RestRequest = { params: req.params ?? {}, query: req.query ?? new URLSearchParams(), body: req.body, headers: req.headers ?? {} };
    try {
      checkSafe(full.params, full.query, full.body);
      return await runCompiled(opts.runOperation, c, full, context);
    } catch (error) {
      if (error instanceof AppError) {
        const { code: _c, field: _f, ...details } = error.extensions ?? {};
        return { error: { code: error.code, message: error.message, field: error.field, details }, headers: retryAfterHeader(error) };
      }
      throw error;
    }
  };
}

export function createRestHandler(opts: {
  runOperation: RunOperation;
  contextFor: (authorization: string | undefined, known?: Authentication) => Promise<Context>;
  routes: Route[];
  // The service's address, which names the session cookie (auth/session-cookie.ts).
  baseUrl: () => string;
}) {
  const compiled = compileRoutes(opts.routes);

  // `authentication`: the caller as admission (http/admission.ts) already authenticated it, reused instead of a second look-up.
  return async function handleRest(req: IncomingMessage, res: ServerResponse, url: URL, authentication?: Authentication): Promise<void> {
    const method = req.method ?? 'GET';
    const matches: { c: CompiledRoute; m: RegExpExecArray }[] = [];
    for (const c of compiled) {
      const m = c.pattern.exec(url.pathname);
      if (m) matches.push({ c, m });
    }
    if (matches.length === 0) return sendError(res, { code: 'NOT_FOUND', message: `no such endpoint: ${url.pathname}` });
    const hit = matches.find((x) => x.c.route.method === method);
    const context = currentRequest();
    if (context) context.route = hit?.c.route.path ?? matches[0]!.c.route.path;
    if (!hit) {
      const allow = [...new Set(matches.map((x) => x.c.route.method))].join(', ');
      return sendError(res, { code: 'METHOD_NOT_ALLOWED', message: `use ${allow}` }, { allow });
    }

    let idempotent: IdempotencyStart | null = null;
    try {
      if (!hit.c.route.public && !credentialOf(req.headers, sessionCookieName(opts.baseUrl()))) {
        throw new AppError('UNAUTHENTICATED', 'send Authorization: Bearer <API key or access token>');
      }
      const raw = await readBody(req);
      let body: Record<string, unknown> | undefined;
      if (raw.length > 0) {
        if (!isJsonContentType(req.headers['content-type'])) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'send the body as JSON with Content-Type: application/json');
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw.toString('utf8'));
        } catch {
          throw new AppError('INVALID_INPUT', 'the body is not valid JSON', { field: 'body' });
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          throw new AppError('INVALID_INPUT', 'the body must be a JSON object', { field: 'body' });
        }
        body = parsed as Record<string, unknown>;
      }
      const params = Object.fromEntries(hit.c.names.map((n, i) => [n, decodePathSegment(n, hit.m[i + 1]!)]));
      checkSafe(params, url.searchParams, body);
      // Idempotency-Key: a repeat answers from the first request's stored response (http/idempotency.ts).
      const context = await opts.contextFor(credentialOf(req.headers, sessionCookieName(opts.baseUrl())), authentication);
      if (hit.c.route.idempotent) idempotent = await startIdempotentRequest(context, req, { method, path: url.pathname, body });
      if (idempotent?.kind === 'replay') return sendJson(res, idempotent.status, idempotent.body, { 'idempotent-replayed': 'true' });
      if (idempotent?.kind === 'run') res = idempotent.finish(res);
      const restReq: RestRequest = { params, query: url.searchParams, body, headers: req.headers };
      const outcome = await runCompiled(opts.runOperation, hit.c, restReq, context);
      if ('error' in outcome) return sendError(res, outcome.error, outcome.headers);
      sendJson(res, outcome.status, outcome.body);
    } catch (error) {
      if (error instanceof AppError) return sendAppError(res, error);
      if (idempotent?.kind === 'run') await idempotent.abandon();
      throw error;
    }
  };
}
