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
  // Lets the caller end an event stream early with its own last words (an SSE event) instead of
  // yoga's; the GraphQL operation is cancelled.
  interruptible?: (interrupt: (lastWords: string) => void) => void,
): Promise<void> {
  const abort = new AbortController();
  let lastWords: string | null = null;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  interruptible?.((words) => {
    lastWords = words;
    abort.abort();
    void reader?.cancel().catch(() => {});
  });
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  res.on('close', () => abort.abort());
  if (lastWords !== null) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    return void res.end(lastWords);
  }
  const response = await yoga.fetch(url.toString(), { method, headers, body: body as BodyInit | undefined, signal: abort.signal }, serverContext);
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => (outHeaders[name] = value));
  res.writeHead(response.status, outHeaders);
  if (!response.body) return void res.end();
  res.flushHeaders();
  // Read chunk by chunk: yoga may hand back its own ReadableStream implementation, and SSE responses
  // must reach the client as each event is written.
  const stream = (response.body as ReadableStream<Uint8Array>).getReader();
  reader = stream;
  res.on('close', () => void stream.cancel().catch(() => {}));
  // Whether the last chunk ended an event (yoga writes an event's lines in separate chunks).
  let betweenEvents = true;
  try {
    for (;;) {
      if (lastWords !== null) break;
      const { done, value } = await stream.read();
      if (done || res.destroyed || lastWords !== null) break;
      res.write(value);
      betweenEvents = Buffer.from(value).toString('latin1').endsWith('\n\n');
    }
  } catch {
    // the client went away or the stream was cancelled
  }
  if (lastWords !== null) {
    void stream.cancel().catch(() => {});
    const eventStream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
    if (!res.destroyed && eventStream) res.write((betweenEvents ? '' : '\n') + lastWords);
  }
  res.end();
}
