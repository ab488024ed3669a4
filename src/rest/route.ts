// One REST endpoint: a method and path of the spec, the GraphQL document it runs, how to build the
// variables from the request, and the answer it gives.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Shape } from './shape.js';

export interface RestRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown> | undefined;
  headers: Record<string, string | string[] | undefined>;
}

export interface Route<TVars = Record<string, unknown>> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  document: TypedDocumentNode<unknown, TVars>;
  // Public routes (discovery, the task callback) need no Authorization header.
  public?: boolean;
  // Honours the Idempotency-Key header: a repeat gets the first answer (see http/idempotency.ts).
  idempotent?: boolean;
  // Variables beyond those `request` and the path imply (rest/runner.ts impliedVariables): a header, or
  // a path parameter named unlike its variable.
  variables?: (req: RestRequest) => Partial<TVars>;
  // A one-line summary (OpenAPI); where the body and query parameters go (body 'input': the whole body
  // is $input; a list: body fields named after the variables; query: parameter → variable).
  summary: string;
  request?: { body?: 'input' | readonly string[]; query?: Record<string, string> };
  // The answer: its status and how its body is made from the document's result (rest/shape.ts). The
  // runner builds the body from it and the OpenAPI document states it.
  answer: { status?: number; body: Shape };
}

// Keeps each route's variables tied to its document.
export function route<TData, TVars>(r: Route<TVars> & { document: TypedDocumentNode<TData, TVars> }): Route {
  return r as unknown as Route;
}
