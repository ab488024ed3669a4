// Search as you type, over real HTTP: discovery is typed into a box that searches at each key, so the start
// of a word, as typed so far, must find first what the finished word finds, even when that start is a
// word of its own that other agents have in their names ("pro" on the way to "prober").
import { describe, expect, it } from 'vitest';
import { test } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;

const firstNames = async (q: string) => {
  const res = await server.api.get(`/v1/discover?q=${encodeURIComponent(q)}&per_page=5`);
  expect(res.status).toBe(200);
  return res.body.data.map((a: { name: string }) => a.name) as string[];
};

test.beforeAll(async ({ server: s, owner }) => {
  server = s;
  const agents = [
    { name: 'Orel Prober', description: 'Checks endpoints for uptime', capabilities: ['monitoring'] },
    { name: 'Orel Listener Pro', description: 'Transcribes calls', capabilities: ['transcription'] },
    { name: 'Orel Listener', description: 'Transcribes meetings', capabilities: ['transcription'] },
  ];
  for (const body of agents) {
    const res = await server.api.post('/v1/agents', { key: owner.apiKey, body: { endpoint: 'http://127.0.0.1:9/tasks', ...body } });
    expect(res.status).toBe(201);
  }
});

describe('a prefix of the last word', () => {
  it('finds first what the whole word finds, at every letter typed, also where the prefix is a word itself', async () => {
    const [word] = await firstNames('orel prober');
    expect(word).toBe('Orel Prober');
    for (const q of ['orel pro', 'orel prob', 'orel probe']) expect((await firstNames(q))[0], q).toBe(word);
  });

  it('still finds the name that has the word as typed, when that is what was typed', async () => {
    expect((await firstNames('orel listener pro'))[0]).toBe('Orel Listener Pro');
    expect((await firstNames('orel listener'))[0]).toBe('Orel Listener');
  });

  it('does the same through GraphQL', async () => {
    const out = await server.api.graphql(`query ($q: String) { discover(q: $q, perPage: 3) { data { name } } }`, { q: 'orel pro' });
    expect(out.errors).toBeUndefined();
    expect(out.data.discover.data[0]).toEqual({ name: 'Orel Prober' });
  });
});
