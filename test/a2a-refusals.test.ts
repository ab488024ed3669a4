// How the A2A surfaces refuse (issue 33), on a service that allows only public addresses, as in
// production: a refused URL names its host and never what the service's resolver said about it, and
// malformed JSON-RPC params are invalid params (-32602) naming the field, not an internal error with a
// JavaScript message, and leave no error with a stack in the log.
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { forbiddenAddressReason } from '../src/delivery/ip-policy.js';
import { logLines, testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

type Line = Record<string, unknown> & { msg: string; level: number };
const { lines, stream: capture } = logLines<Line>();

let server: TestServer;
let user: { id: string; apiKey: string };

const test = testWith({ serverEnv: { ALLOW_PRIVATE_ENDPOINTS: 'false', LOG_LEVEL: 'info' }, serverLog: capture });

test.beforeAll(async ({ server: s }) => {
  server = s;
  user = await server.createUser();
});

async function rpc(body: unknown, version: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` };
  if (version !== null) headers['a2a-version'] = version;
  const res = await fetch(`${server.url}/a2a`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

// This machine's own name resolves (through /etc/hosts) to a loopback or private address: a name whose
// answer is internal. Where it does not resolve that way, there is nothing to check here.
const host = hostname();
const addresses = await lookup(host, { all: true }).then((all) => all.map((a) => a.address), () => [] as string[]);
const internal = addresses.length > 0 && addresses.every((a) => forbiddenAddressReason(a) !== null);

describe('refused URLs name the host, not its addresses', () => {
  it.skipIf(!internal)(`a name that resolves inside (${host}) is refused without its address, for an endpoint, a card URL and a push URL`, async () => {
    const expected = `the address of ${host.toLowerCase()} is not allowed (private, loopback or reserved)`;
    const endpoint = await server.api.post('/v1/agents', { key: user.apiKey, body: { name: 'Inner Ibis', endpoint: `http://${host}:9/hook` } });
    expect(endpoint.status).toBe(400);
    expect(endpoint.body.error.message).toContain(expected);

    const card = await server.api.post('/v1/agents/import', { key: user.apiKey, body: { cardUrl: `http://${host}:9/card.json` } });
    expect(card.status).toBe(400);
    expect(card.body.error).toMatchObject({ field: 'cardUrl', message: expect.stringContaining(expected) });

    // A task no agent takes (nothing is delivered anywhere), and a push configuration on it.
    const task = await server.api.post('/v1/tasks', { key: user.apiKey, body: { title: 'Unrouted', description: 'For a push URL', capabilities: ['nobody-has-this'] } });
    expect(task.status).toBe(201);
    const push = await rpc({ jsonrpc: '2.0', id: 1, method: 'CreateTaskPushNotificationConfig', params: { taskId: task.body.data.id, url: `http://${host}:9/push` } }, '1.0');
    expect(push.body.error).toMatchObject({ code: -32602, message: expect.stringContaining(expected) });

    for (const message of [endpoint.body.error.message, card.body.error.message, push.body.error.message]) {
      for (const address of addresses) expect(message).not.toContain(address);
      expect(message).not.toContain('resolves to');
    }
    await server.api.post(`/v1/tasks/${task.body.data.id}/cancel`, { key: user.apiKey });
  });
});

describe('malformed params are invalid params, naming the field', () => {
  it.each([
    ['SendMessage with parts [1, "x", null]', '1.0', 'SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', parts: [1, 'x', null] } }, 'params.message.parts[0] must be an object'],
    ['SendMessage with parts [{text: 1}]', '1.0', 'SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 1 }] } }, 'params.message.parts[0].text must be a string'],
    ['SendMessage without a message', '1.0', 'SendMessage', {}, 'params.message is required'],
    ['SendMessage with returnImmediately "yes"', '1.0', 'SendMessage', { message: { messageId: 'm1', parts: [] }, configuration: { returnImmediately: 'yes' } }, 'params.configuration.returnImmediately must be a boolean'],
    ['GetTask with id {}', '1.0', 'GetTask', { id: {} }, 'params.id must be a string'],
    ['ListTasks with pageSize "ten"', '1.0', 'ListTasks', { pageSize: 'ten' }, 'params.pageSize must be a number'],
    ['CreateTaskPushNotificationConfig with url 5', '1.0', 'CreateTaskPushNotificationConfig', { taskId: 't', url: 5 }, 'params.url must be a string'],
    ['v0.3 tasks/get with id {}', null, 'tasks/get', { id: {} }, 'params.id must be a string'],
    ['v0.3 tasks/cancel with id {}', null, 'tasks/cancel', { id: {} }, 'params.id must be a string'],
    ['v0.3 tasks/resubscribe with id {}', null, 'tasks/resubscribe', { id: {} }, 'params.id must be a string'],
    ['v0.3 message/send with parts [null]', '0.3', 'message/send', { message: { kind: 'message', messageId: 'm', role: 'user', parts: [null] } }, 'params.message.parts[0] must be an object'],
    ['v0.3 tasks/pushNotificationConfig/set without its config', null, 'tasks/pushNotificationConfig/set', { taskId: 't' }, 'params.pushNotificationConfig is required'],
  ])('%s', async (_what, version, method, params, words) => {
    const before = lines.length;
    const res = await rpc({ jsonrpc: '2.0', id: 7, method, params }, version);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: `Invalid params: ${words}` } });
    expect(JSON.stringify(res.body)).not.toMatch(/Cannot read|undefined|TypeError|at .*\.js/);
    const logged = lines.slice(before).filter((line) => line.level >= 50 || JSON.stringify(line).includes('"stack"'));
    expect(logged).toEqual([]);
  });
});
