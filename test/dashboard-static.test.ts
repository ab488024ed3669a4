// The dashboard's static files as the service serves them (src/http/static.ts): content types, cache
// headers, client routes answered with index.html, and no way out of the build folder.
import http from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticHandler, resolveInside } from '../src/http/static.js';

let scratch: string;
let root: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'static-'));
  root = path.join(scratch, 'web');
  await mkdir(path.join(root, 'assets'), { recursive: true });
  await writeFile(path.join(root, 'index.html'), '<meta name="tm-jwt-sign-in" content="%JWT_SIGN_IN%"><p>dashboard</p>');
  await writeFile(path.join(root, 'assets', 'app-ABC123.js'), 'console.log(1)');
  await writeFile(path.join(root, 'assets', 'app-ABC123.css'), 'body{}');
  await writeFile(path.join(root, 'assets', 'app-ABC123.css.gz'), gzipSync('body{}'));
  await writeFile(path.join(root, 'favicon.svg'), '<svg/>');
  // Beside the build folder: must never be served.
  await writeFile(path.join(scratch, 'secret.txt'), 'top secret');
  await writeFile(path.join(scratch, 'web-secret.txt'), 'top secret');
  const serveStatic = createStaticHandler({ dir: root, jwtSignIn: true });
  // The same path handling as the service (src/app.ts): the WHATWG URL's pathname.
  server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://service.internal').pathname;
    void serveStatic(req, res, pathname).then((served) => {
      if (!served) res.writeHead(404, { 'x-fell-through': 'yes' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

// Sends the path exactly as written (fetch would normalise ../ before sending).
function rawGet(rawPath: string, method = 'GET', headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; raw: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/`, { method, path: rawPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body: raw.toString('utf8'), raw });
      });
    });
    req.on('error', reject).end();
  });
}

describe('dashboard static files', () => {
  it('serves hashed assets with their content type and a long cache', async () => {
    const js = await rawGet('/assets/app-ABC123.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.body).toBe('console.log(1)');
    const css = await rawGet('/assets/app-ABC123.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const icon = await rawGet('/favicon.svg');
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('sends the compressed copy of an asset to clients that take gzip', async () => {
    const zipped = await rawGet('/assets/app-ABC123.css', 'GET', { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['vary']).toBe('accept-encoding');
    expect(gunzipSync(zipped.raw).toString()).toBe('body{}');
    const weighted = await rawGet('/assets/app-ABC123.css', 'GET', { 'accept-encoding': 'br;q=1.0, gzip;q=0.5' });
    expect(weighted.headers['content-encoding']).toBe('gzip');
    const refused = await rawGet('/assets/app-ABC123.css', 'GET', { 'accept-encoding': 'gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe('body{}');
    // No .gz beside this one: the plain file.
    const plain = await rawGet('/assets/app-ABC123.js', 'GET', { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('answers the client routes with index.html, never cached, saying whether token sign-in is on', async () => {
    for (const route of ['/', '/sign-in', '/agents/french-translator', '/tasks', '/tasks/tsk_1', '/my/agents', '/my/agents/new', '/my/agents/agt_1', '/billing', '/billing/payouts']) {
      const res = await rawGet(route);
      expect(res.status, route).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<meta name="tm-jwt-sign-in" content="on">');
      const policy = res.headers['content-security-policy'];
      expect(policy).toContain("script-src 'self' 'unsafe-eval';");
      expect(policy).toContain("connect-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    const head = await rawGet('/tasks', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('leaves other paths and methods to the rest of the service', async () => {
    for (const route of ['/nope', '/agents', '/agents/a/b', '/v1/agents', '/graphql', '/healthz', '/metrics']) {
      expect((await rawGet(route)).headers['x-fell-through'], route).toBe('yes');
    }
    expect((await rawGet('/tasks', 'POST')).headers['x-fell-through']).toBe('yes');
  });

  it('answers a browser opening an unknown page with the dashboard (its not-found page) and status 404', async () => {
    for (const route of ['/nope', '/agents', '/agents/a/b', '/agents/%zz/x']) {
      const res = await rawGet(route, 'GET', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
      expect(res.status, route).toBe(404);
      expect(res.headers['content-type'], route).toBe('text/html; charset=utf-8');
      expect(res.body, route).toContain('<p>dashboard</p>');
      expect(res.headers['content-security-policy'], route).toContain("frame-ancestors 'none'");
    }
    // API clients still get the service's JSON answer.
    expect((await rawGet('/nope', 'GET', { accept: 'application/json' })).headers['x-fell-through']).toBe('yes');
    expect((await rawGet('/nope', 'POST', { accept: 'text/html' })).headers['x-fell-through']).toBe('yes');
  });

  it('answers 404 for a missing asset', async () => {
    const res = await rawGet('/assets/app-OLD.js');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('never reads outside the build folder', async () => {
    for (const attempt of [
      '/assets/../../secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/..%2f..%2f..%2fweb-secret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/assets/app-ABC123.js%00.png',
      '/assets/%E0%A4%A',
    ]) {
      const res = await rawGet(attempt);
      expect(res.body, attempt).not.toContain('top secret');
      expect([404, 200], attempt).toContain(res.status);
      if (res.status === 200) expect(res.headers['content-type'], attempt).toBe('text/html; charset=utf-8');
    }
  });

  it('resolves only paths inside the folder', () => {
    expect(resolveInside(root, '/assets/app-ABC123.js')).toBe(path.join(root, 'assets', 'app-ABC123.js'));
    expect(resolveInside(root, '/assets/../index.html')).toBe(path.join(root, 'index.html'));
    expect(resolveInside(root, '/../secret.txt')).toBe(path.join(root, 'secret.txt'));
    expect(resolveInside(root, '/..%2fsecret.txt')).toBe(path.join(root, 'secret.txt'));
    expect(resolveInside(root, '/%2e%2e%5csecret.txt')).toBeNull();
    expect(resolveInside(root, '/a%00b')).toBeNull();
    expect(resolveInside(root, '/%E0%A4%A')).toBeNull();
    expect(resolveInside(root, '/')).toBeNull();
  });
});
