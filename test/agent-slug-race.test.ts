// Slugs under concurrency: many owners creating or renaming agents to one name at the same moment all
// succeed, each with a slug of its own (the unique index never reaches a client as a 500).
import { expect, test } from './support/fixtures.js';

// Creates an agent of the owner's under a name.
const it = test.extend('create', async ({ server, owner }) => (name: string) =>
  server.api.post('/v1/agents', { key: owner.apiKey, body: { name, endpoint: 'http://127.0.0.1:9/tasks' } }),
);

it('gives 20 concurrent creates of one name 20 distinct slugs', async ({ create }) => {
  const answers = await Promise.all(Array.from({ length: 20 }, () => create('Same Name')));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
  const slugs = answers.map((a) => a.body.data.slug as string);
  expect(new Set(slugs).size).toBe(20);
  for (const slug of slugs) expect(slug).toMatch(/^same-name(-\d+)?$/);
});

it('gives 20 concurrent renames to one name 20 distinct slugs', async ({ server, owner, create }) => {
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) ids.push((await create(`Before Rename ${i}`)).body.data.id);
  const answers = await Promise.all(ids.map((id) => server.api.put(`/v1/agents/${id}`, { key: owner.apiKey, body: { name: 'Renamed Alike' } })));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  const slugs = answers.map((a) => a.body.data.slug as string);
  expect(new Set(slugs).size).toBe(20);
  for (const slug of slugs) expect(slug).toMatch(/^renamed-alike(-\d+)?$/);
});
