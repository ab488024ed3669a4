// A value of the wrong kind is refused in the API's words, not the validation library's
// ("Invalid input: expected array, received null").
import { expect } from 'vitest';
import { testWith } from './support/fixtures.js';

const test = testWith({});

test('names the field and the kind it takes', async ({ server, owner, agent }) => {
  const put = (body: unknown) => server.api.call('PUT', `/v1/agents/${agent.id}`, { key: owner.apiKey, body });
  const cases: Array<[unknown, string, string]> = [
    [{ tags: null }, 'tags', 'tags cannot be null'],
    [{ capabilities: null }, 'capabilities', 'capabilities cannot be null'],
  ];
  for (const [body, field, message] of cases) {
    const res = await put(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'INVALID_INPUT', field, message });
  }
});
