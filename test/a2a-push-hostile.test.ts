// The A2A push form of the task callback takes a StreamResponse from anyone who sends one: a task, a
// status or an artifact of the wrong shape is a 400 naming the body, never a 500.
import { expect } from 'vitest';
import { testWith } from './support/fixtures.js';

const test = testWith({});

const hostile: Record<string, unknown> = {
  'a status of the wrong kind': { task: { id: 'r1', contextId: 'c', status: { state: { a: 1 }, message: { parts: [null, 1, 'x'] } } } },
  'artifacts of nulls': { task: { id: 'r1', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [null, { parts: 'x' }] } },
  'status parts of every kind': { statusUpdate: { taskId: 'r1', status: { state: 'TASK_STATE_WORKING', message: { parts: [null, 1] } } } },
};

for (const [name, body] of Object.entries(hostile)) {
  test(`a push with ${name}: 400 naming the body`, async ({ server, task }) => {
    const res = await fetch(`${server.url}/v1/tasks/${task.id}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/a2a+json', authorization: 'Bearer not-the-token' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'body', message: expect.stringMatching(/StreamResponse/) } });
  });
}
