// Talks to the service: GraphQL over HTTP with fetch, and the few REST calls that need HTTP headers
// GraphQL has no place for (Idempotency-Key). The credential lives in sessionStorage: it is gone when
// the tab closes and is never written anywhere else.
import type { TypedDocumentString } from './generated/gql/graphql.js';

const CREDENTIAL = 'tm.credential';

export const session = {
  get: (): string | null => sessionStorage.getItem(CREDENTIAL),
  set: (token: string) => sessionStorage.setItem(CREDENTIAL, token),
  clear: () => sessionStorage.removeItem(CREDENTIAL),
};

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

function headers(extra: Record<string, string> = {}, token = session.get()): Record<string, string> {
  return { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra };
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
  opts: { token?: string } = {},
): Promise<TResult> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: headers({ accept: 'application/graphql-response+json, application/json' }, opts.token ?? session.get()),
    body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
  });
  const body = await readJson(res);
  const first = body.errors?.[0];
  if (first) throw new ApiError(first.message ?? 'request failed', first.extensions?.code ?? 'ERROR', first.extensions?.field, res.status);
  return body.data as TResult;
}

export async function rest<T>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(path, { method, headers: headers(extra), body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = await readJson(res);
  if (!res.ok) {
    const error = parsed.error ?? {};
    throw new ApiError(error.message ?? `request failed (${res.status})`, error.code ?? 'ERROR', error.field, res.status);
  }
  return { status: res.status, body: parsed as unknown as T };
}

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
