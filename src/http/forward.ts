// Hands a /graphql request to yoga as a fetch Request and streams the Response back (SSE included).
// The body is read here, under the same size limit as REST.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './body.js';

export async function forwardToYoga(
  yoga: { fetch(url: string, init: RequestInit, serverContext?: object): Promise<Response> | Response },
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  serverContext: object = {},
): Promise<void> {
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  const response = await yoga.fetch(url.toString(), { method, headers, body: body as BodyInit | undefined, signal: abort.signal }, serverContext);
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => (outHeaders[name] = value));
  res.writeHead(response.status, outHeaders);
  if (!response.body) return void res.end();
  res.flushHeaders();
  // Read chunk by chunk: yoga may hand back its own ReadableStream implementation, and SSE responses
  // must reach the client as each event is written.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  res.on('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      res.write(value);
    }
  } catch {
    // the client went away or the stream was cancelled
  }
  res.end();
}
