// The file endpoints (docs/files.md), raw HTTP beside the GraphQL-backed route table because bodies and
// answers are streams of bytes, not JSON:
//   POST /v1/files                  upload (API key or session): a raw body with ?filename=, or multipart/form-data
//   GET  /v1/files/:id              download: the owner and the parties of a task using the file
//   GET  /v1/files/:id?expires&sig  download by a signed link (agents; no credentials)
//   POST /v1/tasks/:id/files        an agent's result file, with its task token (X-Task-Token or Bearer)
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { insufficientScope, invalid, notFound, unauthenticated } from '../errors.js';
import { clientWentAway } from '../http/client-gone.js';
import type { Scope } from '../auth/scopes.js';
import type { HttpRoute } from '../http/route.js';
import { fileOperations } from './openapi/file-operations.js';
import { sendError, sendJson } from '../http/respond.js';
import type { Authentication } from '../services/accounts/authenticate.js';
import type { FileService, FileView, Upload } from '../services/files/index.js';
import type { FileRow } from '../stores/file-store.js';
import { dispositionOf } from '../files/names.js';
import type { ByteRange } from '../files/storage.js';

// Uploading is part of making a task (tasks:write), reading a file part of reading one (tasks:read).
const signedIn = (authentication: Authentication | undefined, scope: Scope) => {
  if (authentication?.authError) throw unauthenticated(authentication.authError);
  if (!authentication?.viewer) throw unauthenticated('send an API key as Authorization: Bearer <key>');
  if (!authentication.scopes.includes(scope)) throw insufficientScope(scope);
  return authentication.viewer;
};

// A client that goes away mid-upload fails the body, so the partial write is undone at once. The error
// says the client went away (server.ts logs that at debug): anyone can hang up, so it is no failure here.
function watchAbort(req: IncomingMessage): void {
  req.once('close', () => {
    if (!req.complete) req.destroy(clientWentAway());
  });
}

// The uploaded file from the request: the raw body, or the first file part of a multipart form.
function withUpload(req: IncomingMessage, url: URL, receive: (upload: Upload) => Promise<FileView>): Promise<FileView> {
  watchAbort(req);
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    const length = req.headers['content-length'];
    return receive({
      filename: url.searchParams.get('filename'),
      mediaType: type,
      declaredSize: length && /^\d+$/.test(length) ? Number(length) : null,
      body: req,
    });
  }
  return new Promise<FileView>((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({ headers: req.headers, limits: { files: 1, fields: 20, fieldSize: 1024, parts: 30, headerPairs: 20 } });
    } catch {
      return reject(invalid('content-type', 'the multipart/form-data body has no boundary'));
    }
    let found = false;
    form.on('file', (_name, stream, info) => {
      // Listened to at once: the form fails its file stream (a part cut short, the client gone) whenever
      // the bytes say so, which may be while the upload waits for the database, or after it was refused
      // and nobody reads the stream. Unheard, that error would end the process. receive() sees it through
      // stream.finished, which also reports an error that came before it looked.
      stream.on('error', () => {});
      if (found) return stream.resume();
      found = true;
      req.once('error', (error) => stream.destroy(error));
      receive({ filename: url.searchParams.get('filename') ?? info.filename, mediaType: info.mimeType, declaredSize: null, body: stream }).then(resolve, reject);
    });
    form.on('error', () => reject(invalid('body', 'the multipart/form-data body is malformed')));
    form.on('close', () => {
      if (!found) reject(invalid('file', 'the form has no file part'));
    });
    // Gone before its file part began: nothing else would settle the upload.
    req.once('close', () => {
      if (!req.complete) reject(clientWentAway());
    });
    req.pipe(form);
  });
}

// One range of `bytes=`; null to send the whole file (no header, or several ranges); 'unsatisfiable' for 416.
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return header.includes(',') ? null : 'unsatisfiable';
  const [, from, to] = match;
  if (from === '' && to === '') return 'unsatisfiable';
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

async function sendFile(files: FileService, req: IncomingMessage, res: ServerResponse, row: FileRow): Promise<void> {
  const headers: Record<string, string> = {
    'content-type': row.mediaType,
    'content-disposition': dispositionOf(row.mediaType, row.filename),
    'x-content-type-options': 'nosniff',
    // Even shown inline, the file runs nothing and loads nothing.
    'content-security-policy': "default-src 'none'; media-src 'self'; img-src 'self'; sandbox",
    'cache-control': 'private, max-age=0',
    'accept-ranges': 'bytes',
    etag: `"${row.sha256}"`,
  };
  const range = parseRange(req.headers.range, row.size);
  if (range === 'unsatisfiable') {
    return sendError(res, { code: 'RANGE_NOT_SATISFIABLE', message: `the range is outside the file's ${row.size} bytes` }, { 'content-range': `bytes */${row.size}` });
  }
  const body = await files.open(row, range ?? undefined);
  if (range) {
    res.writeHead(206, { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${row.size}`, 'content-length': String(range.end - range.start + 1) });
  } else {
    res.writeHead(200, { ...headers, 'content-length': String(row.size) });
  }
  if (req.method === 'HEAD') return void body.destroy(), void res.end();
  // A reader that goes away ends the stream; nothing else to do.
  await pipeline(body, res).catch(() => {});
}

const FILE_ID = /^fil_[A-Za-z0-9]{1,60}$/;
const TASK_ID = /^tsk_[A-Za-z0-9]{1,60}$/;
const hasSignature = (req: IncomingMessage) => /[?&]sig=/.test(req.url ?? '');

// Only ids of the form the service makes: anything else names no file (or task) here.
function idOf(pattern: RegExp, id: string | undefined, what: string): string {
  if (!id || !pattern.test(id)) throw notFound(what);
  return id;
}

// A signed link (its credential in the query) is its own route beside the signed-in form, on the same
// method and path, so each is admitted as it should be: by address, or as the caller.
export function fileRoutes(files: FileService): HttpRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/files',
      credential: 'own',
      admission: 'address',
      claims: hasSignature,
      openapi: fileOperations.upload,
      async handle({ req, res, url }) {
        const receive = await files.signedUploader(url.searchParams);
        sendJson(res, 201, { data: await withUpload(req, url, receive) });
      },
    },
    {
      method: 'POST',
      path: '/v1/files',
      credential: 'caller',
      admission: 'caller',
      openapi: fileOperations.upload,
      async handle({ req, res, url, authentication }) {
        const viewer = signedIn(authentication, 'tasks:write');
        sendJson(res, 201, { data: await withUpload(req, url, (upload) => files.upload(viewer, upload)) });
      },
    },
    {
      method: 'GET',
      head: true,
      path: '/v1/files/:id',
      credential: 'own',
      admission: 'address',
      claims: hasSignature,
      openapi: fileOperations.download,
      async handle({ req, res, url, params }) {
        const row = await files.forLink(idOf(FILE_ID, params.id, 'file'), url.searchParams.get('expires'), url.searchParams.get('sig'));
        await sendFile(files, req, res, row);
      },
    },
    {
      method: 'GET',
      head: true,
      path: '/v1/files/:id',
      credential: 'caller',
      admission: 'caller',
      openapi: fileOperations.download,
      async handle({ req, res, params, authentication }) {
        const row = await files.forViewer(signedIn(authentication, 'tasks:read'), idOf(FILE_ID, params.id, 'file'));
        await sendFile(files, req, res, row);
      },
    },
    {
      method: 'POST',
      path: '/v1/tasks/:id/files',
      credential: 'own',
      admission: 'address',
      openapi: fileOperations.resultUpload,
      async handle({ req, res, url, params }) {
        const header = req.headers['x-task-token'];
        const token = (typeof header === 'string' && header) || /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
        if (!token) throw unauthenticated('send the task token as X-Task-Token (or Authorization: Bearer)');
        const receive = await files.taskUploader(idOf(TASK_ID, params.id, 'task'), token);
        sendJson(res, 201, { data: await withUpload(req, url, receive) });
      },
    },
  ];
}
