// Renaming an agent changes its slug; the old one keeps leading to it (REST and GraphQL) and is not
// handed to another agent until the renamed agent is deleted.
import { describe, expect, test } from './support/fixtures.js';

type Named = { id: string; slug: string };

// The owner creates and renames agents.
const it = test
  .extend('create', async ({ server, owner }) => async (name: string) =>
    (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name, endpoint: 'http://127.0.0.1:9/tasks' } })).body.data as Named,
  )
  .extend('rename', async ({ server, owner }) => async (id: string, name: string) =>
    (await server.api.put(`/v1/agents/${id}`, { key: owner.apiKey, body: { name } })).body.data as Named,
  );
const AGENT = 'query($s: String!) { agent(slugOrId: $s) { id slug } }';

describe('previous slugs', () => {
  it('resolve to the renamed agent over REST and GraphQL', async ({ server, create, rename }) => {
    const agent = await create('Old Name');
    expect(agent.slug).toBe('old-name');
    const renamed = await rename(agent.id, 'New Name');
    expect(renamed.slug).toBe('new-name');
    const byOld = await server.api.get('/v1/discover/old-name');
    expect(byOld.status).toBe(200);
    expect(byOld.body.data).toMatchObject({ id: agent.id, slug: 'new-name' });
    expect((await server.api.get('/v1/discover/OLD-NAME')).body.data.id).toBe(agent.id);
    expect((await server.api.graphql(AGENT, { s: 'old-name' })).data.agent).toEqual({ id: agent.id, slug: 'new-name' });
    expect((await server.api.get('/v1/discover/never-was')).status).toBe(404);
  });

  it('are not given to another agent while the renamed one exists, and are freed when it is deleted', async ({ server, owner, create, rename }) => {
    const first = await create('Keeper');
    await rename(first.id, 'Keeper Renamed');
    const second = await create('Keeper');
    expect(second.slug).toBe('keeper-2');
    expect((await server.api.get('/v1/discover/keeper')).body.data.id).toBe(first.id);

    expect((await server.api.delete(`/v1/agents/${first.id}`, { key: owner.apiKey })).status).toBe(200);
    const third = await create('Keeper');
    expect(third.slug).toBe('keeper');
    expect((await server.api.get('/v1/discover/keeper')).body.data.id).toBe(third.id);
  });

  it('become current again when the agent takes its old name back, and a chain of renames keeps every slug', async ({ server, create, rename }) => {
    const agent = await create('Alpha');
    await rename(agent.id, 'Beta');
    await rename(agent.id, 'Gamma');
    for (const slug of ['alpha', 'beta', 'gamma']) expect((await server.api.get(`/v1/discover/${slug}`)).body.data.id).toBe(agent.id);
    expect((await rename(agent.id, 'Alpha')).slug).toBe('alpha');
    for (const slug of ['alpha', 'beta', 'gamma']) expect((await server.api.get(`/v1/discover/${slug}`)).body.data.slug).toBe('alpha');
  });
});
