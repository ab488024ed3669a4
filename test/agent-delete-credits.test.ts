// Deleting an agent while requesters hold credits for it is refused, naming the balance, so purchased
// credits are never destroyed silently; deactivating stays open to the owner.
import { expect, test } from './support/fixtures.js';

// A paid agent of the owner's; its id.
const it = test.extend('newAgent', async ({ server, owner }) => async (name: string) =>
  (await server.api.post('/v1/agents', { key: owner.apiKey, body: { name, endpoint: 'http://127.0.0.1:9/x', priceCents: 300 } })).body.data.id as string,
);

it('refuses with 409 naming the outstanding credits, and lets the owner deactivate instead', async ({ server, owner, requester, newAgent }) => {
  const agentId = await newAgent('Credited');
  const other = await server.createUser();
  await server.app.services.credits.grant({ userId: requester.id, agentId, count: 2 });
  await server.api.post('/v1/billing/payment-method', { key: other.apiKey, body: { paymentMethodId: 'pm_card_visa' } });
  expect((await server.api.post('/v1/credits', { key: other.apiKey, body: { agentId, quantity: 3 } })).status).toBe(201);

  const refused = await server.api.delete(`/v1/agents/${agentId}`, { key: owner.apiKey });
  expect(refused.status).toBe(409);
  expect(refused.body.error).toMatchObject({ code: 'CONFLICT', outstandingCredits: 5, creditHolders: 2 });
  expect(refused.body.error.message).toMatch(/5 credit\(s\).*inactive/);
  expect(await server.app.services.credits.balanceOf(requester.id, agentId)).toBe(2);
  expect(await server.app.services.credits.balanceOf(other.id, agentId)).toBe(3);

  const deactivated = await server.api.put(`/v1/agents/${agentId}`, { key: owner.apiKey, body: { status: 'inactive' } });
  expect(deactivated.status).toBe(200);
  expect(deactivated.body.data.status).toBe('inactive');
  expect(await server.app.services.credits.balanceOf(other.id, agentId)).toBe(3);
});

it('deletes once every credit is used', async ({ server, owner, requester, newAgent }) => {
  const agentId = await newAgent('Used Up');
  await server.app.services.credits.grant({ userId: requester.id, agentId, count: 1 });
  const task = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 't', description: 'd', agentId } });
  expect(task.body.payment.method).toBe('credit');
  await server.api.patch(`/v1/tasks/${task.body.data.id}/complete`, { key: owner.apiKey, body: { result: { ok: true } } });
  expect(await server.app.services.credits.balanceOf(requester.id, agentId)).toBe(0);
  expect((await server.api.delete(`/v1/agents/${agentId}`, { key: owner.apiKey })).status).toBe(200);
});
