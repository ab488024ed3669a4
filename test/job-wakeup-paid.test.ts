// A paid task's expiry, due an hour later, rides with the next job its create adds, so it wakes the worker
// no more than that job does: with the delivery of a task paid by a credit, with the card payment's
// safety net of a task whose card is held first (its delivery then wakes the worker once more).
import { describe, expect, testWith } from './support/fixtures.js';
import { jobsOfTask, wakesDuring } from './support/jobs.js';
import { until } from './support/wait.js';

const test = testWith({ agentProfile: { name: 'Paid woken', capabilities: ['paid-woken'], priceCents: 500 } });

describe('wake-ups of a paid task\'s create', () => {
  test('a task paid by a credit wakes the worker once, for its delivery and its expiry', async ({ server, agent }) => {
    const requester = await server.createUser();
    await server.app.services.credits.grant({ userId: requester.id, agentId: agent.id, count: 1 });
    const release = agent.http.hold();
    try {
      let id = '';
      const wakes = await wakesDuring(server, async () => {
        const created = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Credit', description: 'd', agentId: agent.id } });
        expect(created.status).toBe(201);
        expect(created.body.payment.method).toBe('credit');
        id = created.body.data.id as string;
      });
      expect(wakes).toEqual([{ count: 2 }]);
      expect((await jobsOfTask(server, id)).map((job) => job.taskIdentifier)).toEqual(['task.deliver', 'task.expire']);
      await until('the delivery', () => agent.http.received.find((d) => d.body.taskId === id));
    } finally {
      release();
    }
  });

  test('a task paid by card wakes the worker once for its expiry and the hold\'s safety net, once for its delivery', async ({ server, agent }) => {
    const requester = await server.createUser();
    expect((await server.api.post('/v1/billing/payment-method', { key: requester.apiKey, body: { paymentMethodId: 'pm_card_visa' } })).status).toBe(200);
    const release = agent.http.hold();
    try {
      let id = '';
      const wakes = await wakesDuring(server, async () => {
        const created = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Card', description: 'd', agentId: agent.id } });
        expect(created.status).toBe(201);
        expect(created.body.payment).toMatchObject({ method: 'card', status: 'authorized' });
        id = created.body.data.id as string;
      });
      expect(wakes).toEqual([{ count: 2 }, { count: 1 }]);
      expect((await jobsOfTask(server, id)).map((job) => job.taskIdentifier)).toEqual(['task.deliver', 'task.expire']);
      await until('the delivery', () => agent.http.received.find((d) => d.body.taskId === id));
    } finally {
      release();
    }
  });
});
