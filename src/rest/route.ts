// One REST endpoint: a method and path of the spec, the GraphQL document it runs, how to build the
// variables from the request, and how to shape the answer.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Shape } from './shape.js';

export interface RestRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown> | undefined;
  headers: Record<string, string | string[] | undefined>;
}

export interface RestResponse {
  status?: number;
  body: unknown;
}

export interface Route<TData = unknown, TVars = Record<string, unknown>> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  document: TypedDocumentNode<TData, TVars>;
  // Public routes (discovery, the task callback) need no Authorization header.
  public?: boolean;
  // Honours the Idempotency-Key header: a repeat gets the first answer (see http/idempotency.ts).
  idempotent?: boolean;
  variables?: (req: RestRequest) => TVars;
  respond: (data: TData, req: RestRequest) => RestResponse;
  // For the OpenAPI document (rest/openapi): a one-line summary; where the body and query parameters
  // go (body 'input': the whole body is $input; a list: body fields named after the variables; query:
  // parameter → variable); and the answer's status and shape over the document's result.
  summary: string;
  request?: { body?: 'input' | readonly string[]; query?: Record<string, string> };
  response: { status?: number; body: Shape };
}

// Keeps each route's data and variable types tied to its document.
export function route<TData, TVars>(r: Route<TData, TVars>): Route {
  return r as unknown as Route;
}
