// A2A has no validator to run against a service, so these stand in for one: every card and task we serve
// goes through the official @a2a-js/sdk codecs (fromJSON, then toJSON) and comes back the same (nothing
// we write is unknown to the protocol or read differently), and carries the fields a2a.proto marks
// REQUIRED (field_behavior) with a value.
import { AgentCard, Task } from '@a2a-js/sdk';
import { describe, expect, testWith } from './support/fixtures.js';

const test = testWith({
  agentProfile: { name: 'Proto Plover', description: 'Checks shapes', capabilities: ['checking'], tags: ['proto'], protocols: ['http'] },
});

// Protobuf JSON leaves out empty values; so does the comparison.
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) {
    const kept = value.map(withoutEmpty).filter((v) => v !== undefined);
    return kept.length ? kept : undefined;
  }
  if (value !== null && typeof value === 'object') {
    const kept = Object.entries(value).flatMap(([k, v]) => {
      const w = withoutEmpty(v);
      return w === undefined ? [] : [[k, w] as const];
    });
    return kept.length ? Object.fromEntries(kept) : undefined;
  }
  return value === '' || value === null || value === undefined || value === false || value === 0 ? undefined : value;
}

// The fields a2a.proto (A2A 1.0) marks REQUIRED, by message, as their JSON names.
const REQUIRED = {
  AgentCard: ['name', 'description', 'supportedInterfaces', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills'],
  AgentInterface: ['url', 'protocolBinding', 'protocolVersion'],
  AgentProvider: ['url', 'organization'],
  AgentSkill: ['id', 'name', 'description', 'tags'],
  HTTPAuthSecurityScheme: ['scheme'],
  Task: ['id', 'status'],
  TaskStatus: ['state'],
  Message: ['messageId', 'role', 'parts'],
  Artifact: ['artifactId', 'parts'],
} as const;

function expectRequired(kind: keyof typeof REQUIRED, value: Record<string, unknown>, where: string) {
  for (const field of REQUIRED[kind]) {
    const v = value[field];
    expect(v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0), `${where}.${field} (${kind})`).toBe(true);
  }
}

function expectCard(card: Record<string, any>, where: string) {
  expectRequired('AgentCard', card, where);
  card.supportedInterfaces.forEach((i: Record<string, unknown>, n: number) => expectRequired('AgentInterface', i, `${where}.supportedInterfaces[${n}]`));
  if (card.provider) expectRequired('AgentProvider', card.provider, `${where}.provider`);
  card.skills.forEach((s: Record<string, unknown>, n: number) => expectRequired('AgentSkill', s, `${where}.skills[${n}]`));
  for (const [name, scheme] of Object.entries(card.securitySchemes ?? {})) {
    expectRequired('HTTPAuthSecurityScheme', (scheme as any).httpAuthSecurityScheme, `${where}.securitySchemes.${name}`);
  }
  expect(withoutEmpty(AgentCard.toJSON(AgentCard.fromJSON(card)))).toEqual(withoutEmpty(card));
}

describe('cards through the official codec', () => {
  test('the marketplace’s card and an agent’s card round-trip unchanged and carry every required field', async ({ server, agent }) => {
    void agent;
    for (const path of ['/.well-known/agent-card.json', '/a2a/agents/proto-plover/.well-known/agent-card.json']) {
      const card = (await (await fetch(`${server.url}${path}`)).json()) as Record<string, any>;
      expectCard(card, path);
    }
  });
});

describe('tasks through the official codec', () => {
  test('a task, with its status message and result artifact, round-trips unchanged and carries every required field', async ({ server, requester, agent, task }) => {
    // The agent fails it: the status carries a message. A second one completes with a result: an artifact.
    const failed = await server.api.post(`/v1/tasks/${task.id}/callback`, { body: { taskToken: (await agent.http.waitFor(1)).at(-1)!.body.taskToken, error: 'could not check' } });
    expect(failed.status).toBe(200);
    const get = async (id: string) => {
      const res = await fetch(`${server.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${requester.apiKey}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id } }),
      });
      return ((await res.json()) as { result: Record<string, any> }).result;
    };
    const json = await get(task.id);
    expectRequired('Task', json, 'task');
    expectRequired('TaskStatus', json.status, 'task.status');
    expectRequired('Message', json.status.message, 'task.status.message');
    expect(withoutEmpty(Task.toJSON(Task.fromJSON(json)))).toEqual(withoutEmpty(json));

    const second = await server.api.post('/v1/tasks', { key: requester.apiKey, body: { title: 'Second', description: 'Completes', agentId: agent.id } });
    const delivered = await agent.http.waitFor(2);
    await server.api.post(`/v1/tasks/${second.body.data.id}/callback`, { body: { taskToken: delivered.at(-1)!.body.taskToken, result: { checked: true } } });
    const done = await get(second.body.data.id);
    expect(done.artifacts).toHaveLength(1);
    expectRequired('Artifact', done.artifacts[0], 'task.artifacts[0]');
    expect(withoutEmpty(Task.toJSON(Task.fromJSON(done)))).toEqual(withoutEmpty(done));
  });
});
