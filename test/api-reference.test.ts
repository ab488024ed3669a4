// GET /docs/api: the API reference page made from /v1/openapi.json. It is served as HTML, names every
// operation of the document (so every /v1 route), links its schemas, and loads nothing from anywhere:
// no script, no URL of another origin, and a policy that forbids fetching anything at all.
import { expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
test.beforeAll(async ({ server: s }) => {
  server = s;
});

it('serves a page listing every operation of the OpenAPI document, with nothing loaded from elsewhere', async () => {
  const res = await fetch(`${server.url}/docs/api`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'unsafe-inline';/);
  const html = await res.text();

  const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
  const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => ({ method, path })));
  expect(operations.length).toBeGreaterThan(40);
  for (const { method, path } of operations) {
    const escaped = path.replace(/&/g, '&amp;');
    expect(html, `${method} ${path}`).toContain(`<span class="method ${method}">${method.toUpperCase()}</span> <code>${escaped}</code>`);
  }
  // Each schema the operations link to is on the page.
  for (const link of html.matchAll(/href="#(schema-[^"]+)"/g)) expect(html).toContain(`id="${link[1]}"`);
  expect(Object.keys(doc.components.schemas).every((name) => html.includes(`<h3>${name}</h3>`))).toBe(true);

  // Offline: no script of any kind, and every URL on the page is this service's own (a path) or the
  // base URL the document names.
  expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
  const urls = [...html.matchAll(/https?:\/\/[^\s"'<)]+/g)].map((m) => m[0]);
  expect(urls.every((url) => url.startsWith(server.url) || url.startsWith('http://localhost:'))).toBe(true);
});

it('is linked from the dashboard footer', async () => {
  const { readFile } = await import('node:fs/promises');
  const main = await readFile(new URL('../web/src/main.tsx', import.meta.url), 'utf8');
  expect(main).toMatch(/<footer[^>]*>[\s\S]*href="\/docs\/api"[\s\S]*<\/footer>/);
});
