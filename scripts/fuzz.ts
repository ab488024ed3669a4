// Malformed input against a running service: every REST route of its OpenAPI document (hostile path
// parameters, query parameters and bodies, field by field), GraphQL over HTTP (GET and POST), SSE and
// WebSocket, the raw routes (processor events, signed with the webhook secret when it is given), and the
// other protocols' endpoints (scripts/fuzz-protocols.ts: A2A in both versions, the agent cards, MCP, the
// A2A push callback). No answer may be a 500, carry the INTERNAL code, be a JSON-RPC -32603 (every
// request here is malformed) or show internal text (an exception's words, a stack, a zod dump); every
// REST 400 must name its field. Loopback only; bounded in requests and time.
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import WebSocket from 'ws';
import { fuzzAuth } from './fuzz-auth.js';
import { fuzzProtocols } from './fuzz-protocols.js';
import { sendRaw, uploadRequests } from './fuzz-uploads.js';

const USAGE = `npm run fuzz -- [--url http://127.0.0.1:4000] [--key tmk_…] [--webhook-secret whsec_…]
                   [--max-requests 4000] [--seconds 300]

Sends malformed input to a service on loopback and reports every answer that breaks the rules: a 500,
the INTERNAL code, a JSON-RPC -32603, internal text (an exception's words, a stack, a zod dump), or a
REST 400 that names no field. Exit code 1 when there are findings, 2 for bad options.

  --url             the service (loopback addresses only)
  --key             an API key (npm run cli -- user create): the fuzz makes an agent and a task of its
                    own and reaches the routes behind authentication
  --webhook-secret  the service's STRIPE_WEBHOOK_SECRET, to send signed processor events
  --max-requests    stop after this many requests
  --seconds         stop after this long
  --help            this text`;

// Words of an exception, a stack frame, a validation library's dump, or another layer's prefix.
const INTERNAL_TEXT =
  /Cannot read propert|is not a function|is not iterable|of undefined|of null\b|TypeError|ReferenceError|RangeError|\bat [\w$.<>]+ \([^)]*:\d+:\d+\)|node_modules|ZodError|"code":\s*"invalid_type"|Invalid input: expected|MCP error -?\d+: MCP error|Invalid `prisma|PrismaClient|duplicate key value|violates [\w ]*constraint/;
export interface FuzzOptions {
  url: string;
  key?: string;
  webhookSecret?: string;
  maxRequests?: number;
  seconds?: number;
  // Each REST path parameter, query parameter and body field gets a few of the hostile values (a
  // different few for each) instead of all of them: CI's run, in tens of seconds. The other parts run whole.
  quick?: boolean;
}

export interface Finding {
  target: string;
  case: string;
  status: number;
  problem: string;
  body: string;
}

export interface FuzzReport {
  requests: number;
  byStatus: Record<string, number>;
  // Answers judged per target (a route, a protocol endpoint).
  byTarget: Record<string, number>;
  findings: Finding[];
  stoppedEarly: boolean;
  // The service stopped answering (a finding says after what): the fuzz ends there.
  stopped?: boolean;
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; $ref?: string; anyOf?: Schema[]; oneOf?: Schema[] };
interface Operation {
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  // The shape of its errors when it is not the API's envelope.
  'x-error-format'?: 'graphql' | 'json-rpc';
}

const NUL = '\u0000';
const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
// Values of every JSON kind that a field of any type must refuse or take without harm.
const hostileValues: Record<string, unknown> = {
  'null': null,
  'a number': 12345,
  'a negative number': -1,
  'a huge number': 1e308,
  'a fraction': 2.5,
  'a boolean': true,
  'a string': 'text',
  'an empty string': '',
  'a NUL': `a${NUL}b`,
  'a lone surrogate': '\ud800',
  'a 100 000-character string': 'x'.repeat(100_000),
  'a list': [1, 'a', null],
  'a list of 10 000': Array.from({ length: 10_000 }, (_, i) => i),
  'an object': { a: { b: 1 } },
  'a key with NUL': { [`k${NUL}`]: 1 },
};
const hostilePathParams = ['%zz', '%00', 'a%00b', '%ED%A0%80', 'x'.repeat(5000), '..%2F..%2Fetc', '0', "'; DROP TABLE tasks; --"];
const hostileQueryValues = ['', 'abc', '-1', '0', '1e309', '99999999999999999999', `a${NUL}`, '%zz', 'x'.repeat(10_000), '[object Object]'];
const hostileRawBodies: Record<string, string> = {
  'invalid JSON': '{"a":',
  'a JSON list': '[1,2,3]',
  'a JSON string': '"text"',
  'JSON null': 'null',
  'nested 5 000 deep': deep(5000),
  'a lone surrogate escape': '{"a":"\\ud800"}',
  'NUL escape in a key': '{"a\\u0000":1}',
};

const dataOf = (text: string): unknown => {
  try {
    return (JSON.parse(text) as { data?: unknown }).data;
  } catch {
    return undefined;
  }
};

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname) || /^127\./.test(url.hostname);
}

export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const base = new URL(opts.url);
  if (!isLoopback(base)) throw new Error(`the fuzz only targets loopback addresses, not ${base.hostname}`);
  const origin = base.origin;
  const maxRequests = opts.maxRequests ?? 4000;
  const deadline = Date.now() + (opts.seconds ?? 300) * 1000;
  const report: FuzzReport = { requests: 0, byStatus: {}, byTarget: {}, findings: [], stoppedEarly: false };
  const budgetLeft = () => report.requests < maxRequests && Date.now() < deadline && !report.stopped;

  // Judges one answer: never 500, never INTERNAL, and a 400 names its field.
  const judge = (target: string, name: string, status: number, text: string, opts2: { graphql?: boolean; jsonRpc?: boolean; oauth?: boolean } = {}) => {
    report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
    report.byTarget[target] = (report.byTarget[target] ?? 0) + 1;
    const problems: string[] = [];
    if (status >= 500 && status !== 503) problems.push(`answered ${status}`);
    if (/"INTERNAL(_SERVER_ERROR)?"/.test(text)) problems.push('carries INTERNAL');
    if (opts2.jsonRpc && /"code":\s*-32603\b/.test(text)) problems.push('answered -32603');
    if (INTERNAL_TEXT.test(text)) problems.push('shows internal text');
    if (status === 400 && !opts2.graphql && !opts2.jsonRpc && !opts2.oauth) {
      let field: unknown;
      try {
        const body = JSON.parse(text) as { error?: { field?: unknown; details?: { field?: unknown } } };
        field = body.error?.field ?? body.error?.details?.field;
      } catch {
        problems.push('a 400 that is not JSON');
      }
      if (!field) problems.push('a 400 without a field');
    }
    for (const problem of problems) report.findings.push({ target, case: name, status, problem, body: text.slice(0, 300) });
  };

  const send = async (method: string, path: string, init: { body?: string; headers?: Record<string, string>; auth?: boolean; timeoutMs?: number } = {}) => {
    report.requests++;
    const headers: Record<string, string> = { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers };
    if (init.auth !== false && opts.key) headers.authorization = `Bearer ${opts.key}`;
    try {
      const res = await fetch(`${origin}${path}`, { method, headers, body: init.body, signal: AbortSignal.timeout(init.timeoutMs ?? 30_000) });
      // A stream still open at the time bound: what came so far is the answer.
      let text = '';
      const reader = res.body?.getReader();
      try {
        for (;;) {
          const chunk = await reader?.read();
          if (!chunk || chunk.done) break;
          text += Buffer.from(chunk.value).toString('utf8');
        }
      } catch {
        // cut by the time bound
      }
      return { status: res.status, text };
    } catch (error) {
      // A reset connection is the server's refusal of a request it will not read (too large): not a crash.
      return { status: 0, text: String(error) };
    }
  };

  // Something to aim at: an agent and a task of the caller's own.
  const ids: Record<string, string> = { id: 'tsk_unknown', slugOrId: 'unknown', deliveryId: 'dlv_unknown' };
  let slug = 'unknown';
  let taskToken: string | null = null;
  // The agent's endpoint catches the task's delivery (and so its token) where the service may deliver
  // to loopback; elsewhere the agent is made with a closed port and the callback is fuzzed without a token.
  const receiver = await catchDeliveries();
  try {
    if (opts.key) {
      let agent = await send('POST', '/v1/agents', { body: JSON.stringify({ name: `Fuzz target ${Date.now()}`, endpoint: receiver.url, capabilities: ['fuzz-target'] }) });
      if (agent.status !== 201) agent = await send('POST', '/v1/agents', { body: JSON.stringify({ name: `Fuzz target ${Date.now()}`, endpoint: 'http://127.0.0.1:9/fuzz', capabilities: ['fuzz-target'] }) });
      const created = dataOf(agent.text) as { id?: string; slug?: string } | undefined;
      if (created?.id) {
        ids.agentId = created.id;
        slug = created.slug ?? slug;
        const task = await send('POST', '/v1/tasks', { body: JSON.stringify({ title: 'Fuzz target', description: 'To aim at', agentId: created.id, input: { a: 1 } }) });
        ids.taskId = (dataOf(task.text) as { id?: string } | undefined)?.id ?? 'tsk_unknown';
        taskToken = await receiver.tokenOf(ids.taskId, 5000);
      }
    }
  } finally {
    receiver.close();
  }
  const fill = (path: string, paramName: string) => ids[paramName] ?? (paramName === 'id' && path.startsWith('/v1/agents') ? ids.agentId : ids.taskId) ?? 'unknown';

  const specAnswer = await send('GET', '/v1/openapi.json');
  if (specAnswer.status !== 200) throw new Error(`no OpenAPI document at ${origin}/v1/openapi.json (${specAnswer.status || 'no answer'}); is the service running there?`);
  const spec = JSON.parse(specAnswer.text) as { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
  const resolve = (schema: Schema | undefined): Schema | undefined => {
    if (schema?.$ref) return resolve(spec.components?.schemas?.[schema.$ref.split('/').pop()!]);
    return schema;
  };

  // The values one parameter or field gets: all, or (quick) three of them, rotating with `n`.
  let rotation = 0;
  const some = <T>(list: readonly T[]): readonly T[] => {
    if (!opts.quick || list.length <= 3) return list;
    rotation += 1;
    return [0, 1, 2].map((i) => list[(rotation * 3 + i) % list.length]!);
  };

  for (const [template, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!budgetLeft()) break;
      const verb = method.toUpperCase();
      const target = `${verb} ${template}`;
      // OAuth's endpoints answer in RFC 6749's shape, which names no field; GraphQL's and JSON-RPC's
      // endpoints in their own (the operation's x-error-format).
      const format = { oauth: template.startsWith('/oauth/'), graphql: op['x-error-format'] === 'graphql', jsonRpc: op['x-error-format'] === 'json-rpc' };
      const pathParams = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const concrete = pathParams.reduce((p, name) => p.replace(`{${name}}`, encodeURIComponent(fill(template, name))), template);
      // Hostile path parameters, one parameter at a time.
      for (const name of pathParams) {
        for (const value of some(hostilePathParams)) {
          if (!budgetLeft()) break;
          const path = pathParams.reduce((p, n) => p.replace(`{${n}}`, n === name ? value : encodeURIComponent(fill(template, n))), template);
          const res = await send(verb, path, verb === 'GET' || verb === 'DELETE' ? {} : { body: '{}' });
          judge(target, `path ${name}=${value.slice(0, 40)}`, res.status, res.text, format);
        }
      }
      // Hostile query parameters, one at a time, and each given twice.
      for (const param of (op.parameters ?? []).filter((p) => p.in === 'query')) {
        for (const value of some(hostileQueryValues)) {
          if (!budgetLeft()) break;
          const res = await send(verb, `${concrete}?${param.name}=${encodeURIComponent(value).replace(/%25/g, '%')}`);
          judge(target, `query ${param.name}=${value.slice(0, 40)}`, res.status, res.text, format);
        }
        const twice = await send(verb, `${concrete}?${param.name}=1&${param.name}=2`);
        judge(target, `query ${param.name} twice`, twice.status, twice.text, format);
      }
      const bodySchema = resolve(op.requestBody?.content?.['application/json']?.schema);
      if (!op.requestBody) continue;
      // Whole bodies that no route can read, then each field of the body set to each hostile value.
      for (const [name, raw] of some(Object.entries(hostileRawBodies))) {
        if (!budgetLeft()) break;
        const res = await send(verb, concrete, { body: raw });
        judge(target, `body: ${name}`, res.status, res.text, format);
      }
      const plain = await send(verb, concrete, { body: 'title=x', headers: { 'content-type': 'text/plain' } });
      judge(target, 'body: text/plain', plain.status, plain.text, format);
      for (const field of Object.keys(bodySchema?.properties ?? {})) {
        for (const [name, value] of some(Object.entries(hostileValues))) {
          if (!budgetLeft()) break;
          const res = await send(verb, concrete, { body: JSON.stringify({ [field]: value }) });
          judge(target, `body ${field}: ${name}`, res.status, res.text, format);
        }
      }
    }
  }

  // GraphQL over HTTP: malformed documents and parameters, as POST, GET and SSE.
  const graphqlCases: Record<string, { method: 'GET' | 'POST'; path?: string; body?: string; headers?: Record<string, string> }> = {
    'POST invalid JSON': { method: 'POST', body: '{"query":' },
    'POST query a number': { method: 'POST', body: '{"query":1}' },
    'POST variables a string': { method: 'POST', body: '{"query":"{ __typename }","variables":"x"}' },
    'POST variables a list': { method: 'POST', body: '{"query":"{ __typename }","variables":[1]}' },
    'POST extensions a number': { method: 'POST', body: '{"query":"{ __typename }","extensions":1}' },
    'POST syntax error': { method: 'POST', body: JSON.stringify({ query: '{ me { ' }) },
    'POST unknown field': { method: 'POST', body: JSON.stringify({ query: '{ nothingHere }' }) },
    'POST variable of the wrong type': { method: 'POST', body: JSON.stringify({ query: 'query($id: ID!) { task(id: $id) { id } }', variables: { id: { a: 1 } } }) },
    'POST NUL in a variable': { method: 'POST', body: JSON.stringify({ query: 'query($id: ID!) { task(id: $id) { id } }', variables: { id: `a${NUL}` } }) },
    'POST deep selection': { method: 'POST', body: JSON.stringify({ query: `{ ${'__schema { types { fields { type { '.repeat(30)}name${' } } } }'.repeat(30)} }` }) },
    'POST 10 000 aliases': { method: 'POST', body: JSON.stringify({ query: `{ ${Array.from({ length: 10_000 }, (_, i) => `a${i}: __typename`).join(' ')} }` }) },
    'GET variables malformed': { method: 'GET', path: `/graphql?query=${encodeURIComponent('{ __typename }')}&variables=%7B` },
    'GET extensions malformed': { method: 'GET', path: `/graphql?query=${encodeURIComponent('{ __typename }')}&extensions=nope` },
    'GET bad percent-encoding': { method: 'GET', path: '/graphql?query=%zz' },
    'GET a mutation': { method: 'GET', path: `/graphql?query=${encodeURIComponent('mutation { __typename }')}` },
    'SSE variables malformed': { method: 'GET', path: `/graphql?query=${encodeURIComponent('subscription { taskUpdated(taskId: "x") { id } }')}&variables=%7B`, headers: { accept: 'text/event-stream' } },
    'SSE unknown task': { method: 'GET', path: `/graphql?query=${encodeURIComponent('subscription { taskUpdated(taskId: "tsk_none") { id } }')}`, headers: { accept: 'text/event-stream' } },
  };
  for (const [name, c] of Object.entries(graphqlCases)) {
    if (!budgetLeft()) break;
    const sse = c.headers?.accept === 'text/event-stream';
    report.requests++;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 3000);
    let status = 0;
    let text = '';
    try {
      const res = await fetch(`${origin}${c.path ?? '/graphql'}`, {
        method: c.method,
        headers: { ...(c.body ? { 'content-type': 'application/json' } : {}), ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}), ...c.headers },
        body: c.body,
        signal: controller.signal,
      });
      status = res.status;
      // An SSE stream that stays open is fine; read what came within the time.
      text = await res.text().catch(() => '');
    } catch {
      if (!sse) status = 0;
    } finally {
      clearTimeout(timer);
    }
    judge(`GraphQL ${c.method}${sse ? ' (SSE)' : ''}`, name, status, text, { graphql: true });
  }

  // WebSocket (graphql-transport-ws): malformed messages. A close code of 1011 is the server's crash.
  const wsCases: Record<string, (string | Buffer)[]> = {
    'not JSON': ['{"type":'],
    'unknown message type': [JSON.stringify({ type: 'connection_init', payload: opts.key ? { authorization: `Bearer ${opts.key}` } : {} }), JSON.stringify({ type: 'whatever' })],
    'subscribe before init': [JSON.stringify({ type: 'subscribe', id: '1', payload: { query: '{ __typename }' } })],
    'subscribe with a malformed payload': [JSON.stringify({ type: 'connection_init', payload: opts.key ? { authorization: `Bearer ${opts.key}` } : {} }), JSON.stringify({ type: 'subscribe', id: '1', payload: { query: 1, variables: 'x' } })],
    'subscribe with a 100 000-character id': [JSON.stringify({ type: 'connection_init', payload: opts.key ? { authorization: `Bearer ${opts.key}` } : {} }), JSON.stringify({ type: 'subscribe', id: 'x'.repeat(100_000), payload: { query: '{ __typename }' } })],
    'subscribe with NUL in a variable': [
      JSON.stringify({ type: 'connection_init', payload: opts.key ? { authorization: `Bearer ${opts.key}` } : {} }),
      JSON.stringify({ type: 'subscribe', id: '1', payload: { query: 'subscription($id: ID!) { taskUpdated(taskId: $id) { id } }', variables: { id: `a${NUL}` } } }),
    ],
    'init with a hostile payload': [JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${'x'.repeat(50_000)}${NUL}` } })],
    'binary frame': [Buffer.from([0, 1, 2, 255])],
  };
  const wsUrl = `${origin.replace(/^http/, 'ws')}/graphql`;
  for (const [name, messages] of Object.entries(wsCases)) {
    if (!budgetLeft()) break;
    report.requests++;
    const outcome = await new Promise<{ code: number; text: string }>((resolve) => {
      const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
      let text = '';
      const timer = setTimeout(() => {
        socket.terminate();
        resolve({ code: 0, text });
      }, 3000);
      socket.on('open', () => messages.forEach((m) => socket.send(m)));
      socket.on('message', (data) => (text += data.toString()));
      socket.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, text });
      });
      socket.on('error', () => {});
    });
    report.byStatus[`ws ${outcome.code}`] = (report.byStatus[`ws ${outcome.code}`] ?? 0) + 1;
    if (outcome.code === 1011 || /"INTERNAL(_SERVER_ERROR)?"/.test(outcome.text)) {
      report.findings.push({ target: 'GraphQL WebSocket', case: name, status: outcome.code, problem: outcome.code === 1011 ? 'closed 1011 (internal error)' : 'carries INTERNAL', body: outcome.text.slice(0, 300) });
    }
  }

  // The service must still be there after each part that can end a connection early.
  const alive = async (after: string) => {
    const health = await send('GET', '/healthz', { auth: false, timeoutMs: 5000 });
    if (health.status !== 200) {
      report.findings.push({ target: 'the service', case: after, status: health.status, problem: 'stopped answering', body: health.text.slice(0, 300) });
      report.stopped = true;
    }
    return health.status === 200;
  };

  if (budgetLeft()) await fuzzProtocols({ send, judge, budgetLeft, slug, taskId: ids.taskId ?? 'tsk_unknown', taskToken, some });
  if (budgetLeft() && (await alive('the protocol endpoints'))) await fuzzAuth({ send, judge, budgetLeft });

  // Uploads cut short, never finished, of many parts or huge headers, at every way in (scripts/fuzz-uploads.ts),
  // on their own connections.
  if (budgetLeft() && (await alive('the sign-in and OAuth endpoints'))) {
    let signedUploadPath: string | null = null;
    if (opts.key) {
      const link = await send('POST', '/graphql', { body: JSON.stringify({ query: 'mutation { createFileUpload { url } }' }) });
      const url = (dataOf(link.text) as { createFileUpload?: { url?: string } } | undefined)?.createFileUpload?.url;
      if (url) signedUploadPath = `${new URL(url).pathname}${new URL(url).search}`;
    }
    for (const c of uploadRequests({ key: opts.key, signedUploadPath, taskId: ids.taskId ?? 'tsk_unknown', taskToken })) {
      if (!budgetLeft()) break;
      report.requests++;
      const answer = await sendRaw(origin, c.request);
      // A client that hung up hears nothing; what counts is that the service answers the next request.
      if (c.request.hangUp) {
        report.byStatus['hung up'] = (report.byStatus['hung up'] ?? 0) + 1;
        report.byTarget[c.target] = (report.byTarget[c.target] ?? 0) + 1;
        continue;
      }
      judge(c.target, c.name, answer.status, answer.text);
    }
    await alive('the uploads');
  }

  // Processor events: unsigned and wrongly signed always; signed ones with malformed fields when the
  // webhook secret is known (Stripe's own signing, through its client library).
  const event = (overrides: Record<string, unknown>, object: Record<string, unknown> = {}) =>
    JSON.stringify({ id: `evt_fuzz_${createHash('sha256').update(JSON.stringify([overrides, object])).digest('hex').slice(0, 16)}`, object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_fuzz', object: 'payment_intent', ...object } }, ...overrides });
  const unsigned = await send('POST', '/v1/webhooks/stripe', { body: event({}), auth: false });
  judge('POST /v1/webhooks/stripe', 'no signature', unsigned.status, unsigned.text);
  const wrong = await send('POST', '/v1/webhooks/stripe', { body: event({}), auth: false, headers: { 'stripe-signature': 't=1,v1=00' } });
  judge('POST /v1/webhooks/stripe', 'wrong signature', wrong.status, wrong.text);
  if (opts.webhookSecret) {
    const stripe = new Stripe('sk_test_fuzz');
    const signed: Record<string, string> = {
      'NUL in the type': event({ type: `payment_intent.succeeded${NUL}` }),
      'NUL in the intent id': event({}, { id: `pi_${NUL}` }),
      'a 500 KB intent id': event({}, { id: `pi_${'x'.repeat(500_000)}` }),
      'a 500 KB event id': event({ id: `evt_${'x'.repeat(500_000)}` }),
      'the event id a number': event({ id: 42 }),
      'the type a list': event({ type: ['a'] }),
      'data a string': event({ data: 'x' }),
      'data.object a list': event({ data: { object: [1] } }),
      'no data': event({ data: undefined }),
      'an unknown type': event({ type: 'charge.fuzzed' }),
      'amount a string': event({ type: 'payment_intent.amount_capturable_updated' }, { amount_capturable: 'lots' }),
      'metadata hostile': event({}, { metadata: { taskId: `tsk_${NUL}`, extra: 'x'.repeat(100_000) } }),
      'not JSON': '{"id":',
    };
    for (const [name, payload] of Object.entries(signed)) {
      if (!budgetLeft()) break;
      const header = stripe.webhooks.generateTestHeaderString({ payload, secret: opts.webhookSecret });
      const res = await send('POST', '/v1/webhooks/stripe', { body: payload, auth: false, headers: { 'stripe-signature': header } });
      judge('POST /v1/webhooks/stripe (signed)', name, res.status, res.text);
    }
  }

  report.stoppedEarly = !budgetLeft() && !report.stopped;
  if (!report.stopped) await alive('the processor events');
  return report;
}

// A loopback endpoint that answers 200 to deliveries and remembers each task's token.
async function catchDeliveries(): Promise<{ url: string; tokenOf(taskId: string, waitMs: number): Promise<string | null>; close(): void }> {
  const tokens = new Map<string, string>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body.length < 1_000_000 ? (body += chunk) : undefined));
    req.on('end', () => {
      try {
        const delivery = JSON.parse(body) as { taskId?: string; taskToken?: string };
        if (delivery.taskId && delivery.taskToken) tokens.set(delivery.taskId, delivery.taskToken);
      } catch {
        // not a delivery
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/fuzz`,
    async tokenOf(taskId, waitMs) {
      for (let waited = 0; waited < waitMs && !tokens.has(taskId); waited += 100) await new Promise((r) => setTimeout(r, 100));
      return tokens.get(taskId) ?? null;
    },
    close: () => void server.close(),
  };
}

function options() {
  try {
    return parseArgs({
      options: {
        url: { type: 'string', default: 'http://127.0.0.1:4000' },
        key: { type: 'string' },
        'webhook-secret': { type: 'string' },
        'max-requests': { type: 'string', default: '4000' },
        seconds: { type: 'string', default: '300' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

async function main() {
  const values = options();
  if (values.help) return void console.log(USAGE);
  for (const name of ['max-requests', 'seconds'] as const) {
    if (!/^\d+$/.test(values[name]!)) {
      console.error(`--${name} must be a whole number\n\n${USAGE}`);
      process.exit(2);
    }
  }
  const report = await runFuzz({
    url: values.url!,
    key: values.key,
    webhookSecret: values['webhook-secret'],
    maxRequests: Number(values['max-requests']),
    seconds: Number(values.seconds),
  });
  console.log(`${report.requests} requests; answers by status: ${JSON.stringify(report.byStatus)}${report.stoppedEarly ? ' (stopped at the request or time bound)' : ''}`);
  for (const f of report.findings) console.log(`FINDING ${f.target} | ${f.case} | ${f.status} | ${f.problem} | ${f.body.replace(/\s+/g, ' ')}`);
  console.log(report.findings.length ? `${report.findings.length} findings` : 'no findings');
  process.exitCode = report.findings.length ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main().catch((error: unknown) => {
    console.error(`the fuzz could not run: ${(error as Error).message}`);
    process.exitCode = 2;
  });
}
