// Talks to the service: GraphQL over HTTP with fetch, and the REST calls that need HTTP headers GraphQL
// has no place for (Idempotency-Key) or set the session cookie (signing in). The browser sends the
// HttpOnly session cookie by itself; the page holds no key or token, in memory or in web storage.
import type { TypedDocumentString } from './generated/gql/graphql.js';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly field?: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', ...extra };
}

interface ErrorShape {
  message?: string;
  code?: string;
  field?: string;
  extensions?: { code?: string; field?: string };
}

interface Answer {
  data?: unknown;
  errors?: ErrorShape[];
  error?: ErrorShape;
}

async function readJson(res: Response): Promise<Answer> {
  try {
    return await res.json();
  } catch {
    throw new ApiError(`the service answered ${res.status} without JSON`, 'BAD_RESPONSE', undefined, res.status);
  }
}

export async function gql<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables?: TVariables,
): Promise<TResult> {
  const res = await fetch('/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: headers({ accept: 'application/graphql-response+json, application/json' }),
    body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
  });
  const body = await readJson(res);
  const first = body.errors?.[0];
  if (first) throw new ApiError(first.message ?? 'request failed', first.extensions?.code ?? 'ERROR', first.extensions?.field, res.status);
  return body.data as TResult;
}

export async function rest<T>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(path, { method, credentials: 'same-origin', headers: headers(extra), body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = res.status === 204 ? {} : await readJson(res);
  if (!res.ok) {
    const error = parsed.error ?? {};
    throw new ApiError(error.message ?? `request failed (${res.status})`, error.code ?? 'ERROR', error.field, res.status);
  }
  return { status: res.status, body: parsed as unknown as T };
}

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
