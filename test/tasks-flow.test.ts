// The whole task flow over real HTTP: creation and routing, a signed delivery to a real agent on
// loopback, the agent's callback, and the requester's view.
import { signServiceSignature } from '../src/delivery/signing.js';
import { callBack, waitForStatus } from './support/agent.js';
import { describe, expect, testWith } from './support/fixtures.js';

const test = testWith({ agentProfile: { name: 'Echo', capabilities: ['echo'], protocols: ['http'] } });

describe('a task from creation to completion', () => {
  test('routes, delivers a signed payload, and completes on the callback', async ({ server, requester, agent }) => {
    const getTask = (id: string) =>
      server.api.get(`/v1/tasks/${id}`, { key: requester.apiKey }).then((r) => {
        if (r.status !== 200) throw new Error(JSON.stringify(r.body));
        return r.body.data;
      });
    agent.http.onDelivery((d) => void callBack(d, { result: { echoed: d.body.input } }));
    const res = await server.api.post('/v1/tasks', {
      key: requester.apiKey,
      body: { title: 'Echo this', description: 'Please echo', input: { text: 'hi' }, capabilities: ['Echo'] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.agentId).toBe(agent.id);
    expect(['matched', 'in_progress', 'completed']).toContain(res.body.data.status);
    expect(res.body.payment).toMatchObject({ method: 'free', autoCharged: false });

    const [delivery] = await agent.http.waitFor(1);
    expect(delivery!.signatureValid).toBe(true);
    expect(delivery!.headers['x-service-signature']).toBe(signServiceSignature(agent.http.secret!, delivery!.raw));
    expect(delivery!.headers['x-service-task-id']).toBe(res.body.data.id);
    expect(delivery!.headers['user-agent']).toBe('Service/1.0');
    expect(delivery!.headers['x-service-callback']).toBe(delivery!.body.callbackUrl);
    expect(delivery!.headers['webhook-id']).toMatch(/^dlv_/);
    expect(Object.keys(delivery!.body).sort()).toEqual(
      ['taskId', 'taskToken', 'title', 'description', 'input', 'callbackUrl', 'capabilities', 'priority', 'expiresAt', 'inputHash'].sort(),
    );
    expect(delivery!.body.callbackUrl).toBe(`${server.url.replace('127.0.0.1', 'localhost')}/v1/tasks/${res.body.data.id}/callback`);

    const done = await waitForStatus(() => getTask(res.body.data.id), ['completed']);
    expect(done).toMatchObject({ status: 'completed', result: { echoed: { text: 'hi' } } });
  });
});
