// The fuzz's cases for the file uploads (scripts/fuzz.ts runs them): raw bodies and multipart/form-data
// bodies that are truncated, unterminated, of many parts, with huge part headers, or whose client hangs
// up midway, at every way in: POST /v1/files with a key, with a wrong key and with none, by a pre-signed
// link (a forged one and, with a key, a real one), and POST /v1/tasks/{id}/files with a junk token and
// with the task's own. They are written on a socket of their own: fetch cannot send a body that stops
// short or a connection that ends before its body does. An answer, when there is one, is judged like
// any other; a case that hangs up has none to judge, and the service must answer the next one.
import net from 'node:net';

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  // Written one after the other; the request ends there (or the socket is cut, with hangUp).
  chunks: Buffer[];
  // Cut the connection after the chunks instead of waiting for the answer.
  hangUp?: boolean;
}

export interface RawAnswer {
  // 0 when the connection ended without an answer (as a cut one does).
  status: number;
  text: string;
}

// One request on its own connection; the answer (status line and body) as far as it came within the time.
export function sendRaw(origin: string, request: RawRequest, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
    let received = Buffer.alloc(0);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = received.toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, text: text.slice(text.indexOf('\r\n\r\n') + 4) });
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      // Enough once the declared body is in (the service closes the connection after refusing a body it
      // did not read, but a kept-alive answer would otherwise wait for the time bound).
      const end = received.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(received.subarray(0, end).toString('latin1'))?.[1];
      if (end >= 0 && length !== undefined && received.length >= end + 4 + Number(length)) done();
    });
    socket.on('close', done);
    socket.on('connect', () => {
      const head = [`${request.method} ${request.path} HTTP/1.1`, `host: ${hostname}:${port}`, ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
      socket.write(head);
      for (const chunk of request.chunks) socket.write(chunk);
      // Hanging up: the bytes are given a moment to arrive, then the connection is cut (not half-closed).
      if (request.hangUp) setTimeout(done, 100);
    });
  });
}

const B = 'fuzzboundary';
const multipartType = `multipart/form-data; boundary=${B}`;
const part = (headers: string[], body: string) => `--${B}\r\n${headers.join('\r\n')}\r\n\r\n${body}\r\n`;
const filePart = (name = 'a.txt', body = 'abc') => part([`Content-Disposition: form-data; name="file"; filename="${name}"`, 'Content-Type: text/plain'], body);
const closing = `--${B}--\r\n`;

// Bodies of a multipart form that no upload can take whole, each with what its Content-Length says.
const multipartBodies: Record<string, { body: string; declared?: number; hangUp?: boolean; type?: string }> = {
  // The request of issue 46: a file part that never gets its closing boundary.
  'a file part never closed': { body: `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc` },
  'cut inside a part header': { body: `--${B}\r\nContent-Disposition: form-da` },
  'no closing boundary after a whole part': { body: filePart() },
  'only the closing boundary': { body: closing },
  'an empty body': { body: '' },
  'no boundary in the type': { body: filePart() + closing, type: 'multipart/form-data' },
  'a 200-character boundary': { body: filePart() + closing, type: `multipart/form-data; boundary=${'b'.repeat(200)}` },
  '5 000 fields': { body: Array.from({ length: 5000 }, (_, i) => part([`Content-Disposition: form-data; name="f${i}"`], 'x')).join('') + filePart() + closing },
  '50 file parts': { body: Array.from({ length: 50 }, (_, i) => filePart(`f${i}.txt`)).join('') + closing },
  'a 100 KB part header': { body: part([`Content-Disposition: form-data; name="file"; filename="${'n'.repeat(100_000)}"`], 'abc') + closing },
  '2 000 part header lines': { body: part([...Array.from({ length: 2000 }, (_, i) => `X-H${i}: v`), 'Content-Disposition: form-data; name="file"; filename="a.txt"'], 'abc') + closing },
  'a part without Content-Disposition': { body: part(['Content-Type: text/plain'], 'abc') + closing },
  'a filename with NUL and a lone surrogate': { body: part(['Content-Disposition: form-data; name="file"; filename="a\u0000\ud800.txt"'], 'abc') + closing },
  'declares more than it sends, then hangs up': { body: filePart().slice(0, 60), declared: 10_000, hangUp: true },
  'hangs up inside the file': { body: `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n${'x'.repeat(20_000)}`, declared: 1_000_000, hangUp: true },
  'hangs up before any part': { body: '', declared: 5000, hangUp: true },
};

// Raw bodies (the file is the whole body).
const rawBodies: Record<string, { headers: Record<string, string>; body: string; hangUp?: boolean }> = {
  'declares more than it sends, then hangs up': { headers: { 'content-length': '100000' }, body: 'x'.repeat(1000), hangUp: true },
  'chunked, hangs up midway': { headers: { 'transfer-encoding': 'chunked' }, body: '400\r\n' + 'x'.repeat(300), hangUp: true },
  'chunked, malformed chunk size': { headers: { 'transfer-encoding': 'chunked' }, body: 'zz\r\nabc\r\n0\r\n\r\n' },
  'declares a petabyte': { headers: { 'content-length': '1000000000000000' }, body: 'abc', hangUp: true },
  'a 12 KB header value': { headers: { 'content-length': '3', 'x-fuzz': 'h'.repeat(12_000) }, body: 'abc' },
  'a filename of 10 000 characters': { headers: { 'content-length': '3' }, body: 'abc' },
};

export interface UploadTargets {
  // An API key, a signed upload link (path and query) made with it, a task and its token, when the fuzz has them.
  key?: string;
  signedUploadPath: string | null;
  taskId: string;
  taskToken: string | null;
}

// Where an upload can be sent, each with the credentials it is sent with.
function endpoints(t: UploadTargets): Array<{ target: string; path: string; headers: Record<string, string> }> {
  const out: Array<{ target: string; path: string; headers: Record<string, string> }> = [
    { target: 'POST /v1/files (no credentials)', path: '/v1/files', headers: {} },
    { target: 'POST /v1/files (wrong key)', path: '/v1/files', headers: { authorization: 'Bearer tmk_wrong' } },
    { target: 'POST /v1/files (forged link)', path: '/v1/files?uploader=usr_x&expires=1&sig=AAAA', headers: {} },
    { target: 'POST /v1/tasks/{id}/files (junk token)', path: `/v1/tasks/${t.taskId}/files`, headers: { 'x-task-token': 'junk' } },
    { target: 'POST /v1/tasks/{id}/files (unknown task)', path: '/v1/tasks/tsk_unknown/files', headers: { 'x-task-token': 'junk' } },
  ];
  if (t.key) out.push({ target: 'POST /v1/files (key)', path: '/v1/files', headers: { authorization: `Bearer ${t.key}` } });
  if (t.signedUploadPath) out.push({ target: 'POST /v1/files (signed link)', path: t.signedUploadPath, headers: {} });
  if (t.taskToken) out.push({ target: 'POST /v1/tasks/{id}/files (task token)', path: `/v1/tasks/${t.taskId}/files`, headers: { 'x-task-token': t.taskToken } });
  return out;
}

// Every malformed upload, at every way in.
export function uploadRequests(t: UploadTargets): Array<{ target: string; name: string; request: RawRequest }> {
  const out: Array<{ target: string; name: string; request: RawRequest }> = [];
  for (const endpoint of endpoints(t)) {
    for (const [name, c] of Object.entries(multipartBodies)) {
      const body = Buffer.from(c.body, 'utf8');
      out.push({
        target: endpoint.target,
        name: `multipart: ${name}`,
        request: {
          method: 'POST',
          path: endpoint.path,
          headers: { ...endpoint.headers, 'content-type': c.type ?? multipartType, 'content-length': String(c.declared ?? body.length), connection: 'close' },
          chunks: [body],
          hangUp: c.hangUp,
        },
      });
    }
    for (const [name, c] of Object.entries(rawBodies)) {
      const path = name.startsWith('a filename') ? `${endpoint.path}${endpoint.path.includes('?') ? '&' : '?'}filename=${'n'.repeat(10_000)}` : endpoint.path;
      out.push({
        target: endpoint.target,
        name: `raw: ${name}`,
        request: { method: 'POST', path, headers: { ...endpoint.headers, 'content-type': 'application/octet-stream', connection: 'close', ...c.headers }, chunks: [Buffer.from(c.body)], hangUp: c.hangUp },
      });
    }
  }
  return out;
}
