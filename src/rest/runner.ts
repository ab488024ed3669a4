// Runs a request of the REST table: reads and checks the body, executes the route's GraphQL document
// through the same envelop pipeline as /graphql (same authentication, limits, input guard and error
// masking: graphql/operation.ts) and shapes the answer.
import { print, type GraphQLError, type GraphQLInputType } from 'graphql';
import { AppError, type ErrorCode } from '../errors.js';
import { readJsonObject } from '../http/body.js';
import { startIdempotentRequest, type IdempotencyStart } from '../http/idempotency.js';
import { retryAfterHeader, sendAppError, sendError, sendJson } from '../http/respond.js';
import type { Authentication } from '../services/accounts/authenticate.js';
import { credentialOf, sessionCookieName } from '../auth/session-cookie.js';
import { unsafeInput } from '../services/unsafe-input.js';
import type { HttpRoute, RouteCall } from '../http/route.js';
import { documentedRest } from './openapi/document.js';
import type { RestRequest, Route } from './route.js';
import type { RunOperation } from '../graphql/operation.js';
import type { Context } from '../schema/context.js';
import { schema } from '../schema/index.js';
import { answerFor, type Answer } from './shape.js';
import { checkVariables, queryVariables, restField, variableTypes } from './variables.js';

interface CompiledRoute {
  route: Route;
  query: string;
  types: Map<string, GraphQLInputType>;
  answer: Answer;
}

export function compileRoutes(routes: Route[]): CompiledRoute[] {
  return routes.map((route) => ({ route, query: print(route.document), types: variableTypes(schema, route.document), answer: answerFor(route.answer.body) }));
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
  return { status: c.route.answer.status ?? 200, body: c.answer(result.data, req.params) };
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

// The table's routes as HTTP routes (http/route.ts): each reads and checks its JSON body, runs its document
// and answers; the router has matched it, admitted the caller and decoded the path's parameters.
export function restRoutes(opts: {
  runOperation: RunOperation;
  contextFor: (authorization: string | undefined, known?: Authentication) => Promise<Context>;
  routes: Route[];
  // The service's address, which names the session cookie (auth/session-cookie.ts).
  baseUrl: () => string;
}): HttpRoute[] {
  return compileRoutes(opts.routes).map((c) => ({
    ...documentedRest(c.route),
    credential: c.route.public ? 'public' : 'caller',
    admission: 'caller',
    handle: (call) => runRoute(c, call),
  }));

  // `authentication`: the caller as admission (http/admission.ts) already authenticated it, reused instead of a second look-up.
  async function runRoute(c: CompiledRoute, { req, res: response, url, params, authentication }: RouteCall): Promise<void> {
    let res = response;
    let idempotent: IdempotencyStart | null = null;
    try {
      const body = await readJsonObject(req);
      checkSafe(params, url.searchParams, body);
      // Idempotency-Key: a repeat answers from the first request's stored response (http/idempotency.ts).
      const context = await opts.contextFor(credentialOf(req.headers, sessionCookieName(opts.baseUrl())), authentication);
      if (c.route.idempotent) idempotent = await startIdempotentRequest(context, req, { method: c.route.method, path: url.pathname, body });
      if (idempotent?.kind === 'replay') return sendJson(res, idempotent.status, idempotent.body, { 'idempotent-replayed': 'true' });
      if (idempotent?.kind === 'run') res = idempotent.finish(res);
      const restReq: RestRequest = { params, query: url.searchParams, body, headers: req.headers };
      const outcome = await runCompiled(opts.runOperation, c, restReq, context);
      if ('error' in outcome) return sendError(res, outcome.error, outcome.headers);
      sendJson(res, outcome.status, outcome.body);
    } catch (error) {
      // Answered through the idempotency record's wrapper, when there is one.
      if (error instanceof AppError) return sendAppError(res, error);
      if (idempotent?.kind === 'run') await idempotent.abandon();
      throw error;
    }
  }
}
