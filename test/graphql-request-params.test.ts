// GraphQL over HTTP with malformed parameters: a `variables` or `extensions` that is not a JSON object
// (GET, SSE and POST alike) is the client's mistake, 400 INVALID_INPUT naming it, never INTERNAL.
import { afterAll, describe, expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
test.beforeAll(async ({ server: s }) => {
  server = s;
});
afterAll(async () => {
});

const QUERY = 'query ($q: String) { discover(q: $q) { total } }';

async function get(params: Record<string, string>, accept = 'application/graphql-response+json') {
  const res = await fetch(`${server.url}/graphql?${new URLSearchParams({ query: QUERY, ...params })}`, { headers: { accept } });
  return { status: res.status, text: await res.text() };
}

describe('GET /graphql with malformed parameters', () => {
  it.each([
    ['variables', 'not json'],
    ['variables', '{"q":'],
    ['variables', '[1,2]'],
    ['variables', '"text"'],
    ['extensions', '{oops}'],
    ['extensions', '42'],
  ])('%s=%s answers 400 INVALID_INPUT naming it', async (field, value) => {
    const res = await get({ [field]: value });
    expect(res.status).toBe(400);
    const body = JSON.parse(res.text) as { errors: Array<{ extensions: Record<string, unknown> }> };
    expect(body.errors[0]!.extensions).toMatchObject({ code: 'INVALID_INPUT', field });
    expect(res.text).not.toContain('INTERNAL');
  });

  it('answers the same over SSE', async () => {
    const res = await get({ variables: 'not json' }, 'text/event-stream');
    expect(res.status).toBe(400);
    expect(res.text).toContain('INVALID_INPUT');
    expect(res.text).not.toContain('INTERNAL');
  });

  it('still runs a well-formed GET', async () => {
    const res = await get({ variables: '{"q":"x"}', extensions: '{}' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).data.discover.total).toBe(0);
  });
});

describe('POST /graphql with parameters of the wrong kind', () => {
  it.each([
    ['variables', 'a string'],
    ['variables', [1]],
    ['extensions', 7],
  ])('%s=%j answers 400 naming it', async (field, value) => {
    const res = await server.api.post('/graphql', { body: { query: QUERY, [field]: value } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'INVALID_INPUT', field });
  });

  it('answers 400 for a form-encoded POST with malformed variables', async () => {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: QUERY, variables: 'nope' }).toString(),
    });
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).toContain('INVALID_INPUT');
  });
});
