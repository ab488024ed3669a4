// Plain HTTP calls to the service under test.
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export type ApiClient = ReturnType<typeof apiClient>;

export function apiClient(baseUrl: string) {
  async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON; the raw text is returned
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  return {
    call,
    get: <T = any>(path: string, opts?: CallOptions) => call<T>('GET', path, opts),
    post: <T = any>(path: string, opts?: CallOptions) => call<T>('POST', path, opts),
    put: <T = any>(path: string, opts?: CallOptions) => call<T>('PUT', path, opts),
    patch: <T = any>(path: string, opts?: CallOptions) => call<T>('PATCH', path, opts),
    delete: <T = any>(path: string, opts?: CallOptions) => call<T>('DELETE', path, opts),
    // A GraphQL operation over HTTP.
    async graphql<T = any>(query: string, variables: Record<string, unknown> = {}, key?: string) {
      const res = await call<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>('POST', '/graphql', {
        key,
        body: { query, variables },
      });
      return res.body;
    },
  };
}
