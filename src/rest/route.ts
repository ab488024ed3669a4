// One REST endpoint: a method and path of the spec, the GraphQL document it runs, how to build the
// variables from the request, and how to shape the answer.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

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
}

// Keeps each route's data and variable types tied to its document.
export function route<TData, TVars>(r: Route<TData, TVars>): Route {
  return r as unknown as Route;
}
