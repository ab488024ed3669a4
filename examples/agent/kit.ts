// A small, dependency-free kit for agents of the task marketplace (Node 20+: node:crypto, node:http,
// fetch). Copy this file into an agent. It
//   - verifies a delivery over the raw bytes received, by either signature the service sends:
//     Standard Webhooks (webhook-id / webhook-timestamp / webhook-signature, timestamp signed too: the
//     HMAC `v1` with the secret, or the Ed25519 `v1a` with the agent's public key, nothing secret) or
//     the service's own X-Service-Signature (sha256=<hex HMAC of the body>, with an unsigned
//     X-Service-Timestamp); compares in constant time and refuses stale timestamps (replays);
//   - calls back with a result or an error, using the task token from the delivery;
//   - wraps both into a request handler that answers the delivery at once and works afterwards;
//   - or, for an agent with no public address (deliveryMode "pull"), takes its tasks itself: work()
//     long-polls the service for claims with the owner's API key, keeps each lease alive while the
//     handler runs, and calls back with the outcome.
import { createHmac, createPublicKey, timingSafeEqual, verify as verifySignature } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

export interface Delivery {
  taskId: string;
  taskToken: string;
  title: string;
  description: string;
  input: unknown;
  callbackUrl: string;
  capabilities: string[];
  priority: string;
  expiresAt: string;
}

export class DeliveryRejected extends Error {}

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const MAX_BODY_BYTES = 2 * 1024 * 1024;

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function equalInConstantTime(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  // Lengths of these signatures are public (fixed by the algorithm), so checking them first leaks nothing.
  return x.length === y.length && timingSafeEqual(x, y);
}

function checkFresh(sentAtMs: number, now: Date, toleranceSeconds: number): void {
  if (!Number.isFinite(sentAtMs)) throw new DeliveryRejected('the delivery timestamp is not readable');
  if (Math.abs(now.getTime() - sentAtMs) > toleranceSeconds * 1000) throw new DeliveryRejected('the delivery timestamp is too far from now (a replay?)');
}

// Ed25519 (v1a): the public key is whpk_ + base64 of its raw 32 bytes, placed after the fixed DER
// header of an Ed25519 SubjectPublicKeyInfo (RFC 8410) so node:crypto can read it.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
function verifiesV1a(publicKey: string, signed: Buffer, signature: string): boolean {
  if (!publicKey.startsWith('whpk_')) return false;
  const raw = Buffer.from(publicKey.slice(5), 'base64');
  if (raw.length !== 32) return false;
  const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  try {
    return verifySignature(null, signed, key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/**
 * Checks that a request comes from the service and is recent, and returns its JSON body: a task
 * delivery, or an event such as the service's test ping ({ type: 'ping', timestamp, data }). `rawBody`
 * must be the bytes as received: a re-serialised body does not verify. Throws DeliveryRejected.
 */
export function verifySigned(opts: {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  // Several secrets while the owner rolls a rotation out: a delivery signed with any one of them passes.
  secret?: string | readonly string[];
  // The agent's signing public key(s) (whpk_…, signingPublicKey in its record): verifies the v1a
  // signature, so an agent that keeps no secret can still check its deliveries.
  publicKey?: string | readonly string[];
  toleranceSeconds?: number;
  now?: Date;
}): unknown {
  const { rawBody, headers } = opts;
  const secrets = (typeof opts.secret === 'string' ? [opts.secret] : (opts.secret ?? [])).filter((s) => s !== '');
  const publicKeys = (typeof opts.publicKey === 'string' ? [opts.publicKey] : (opts.publicKey ?? [])).filter((k) => k !== '');
  if (secrets.length === 0 && publicKeys.length === 0) throw new DeliveryRejected('no secret or public key to verify the delivery with');
  const now = opts.now ?? new Date();
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (id && timestamp && signatures) {
    // Standard Webhooks: HMAC-SHA256 of `id.timestamp.body`, keyed with the base64 part of the secret.
    if (!/^\d{1,12}$/.test(timestamp)) throw new DeliveryRejected('webhook-timestamp is not a number of seconds');
    checkFresh(Number(timestamp) * 1000, now, tolerance);
    const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), rawBody]);
    const expected = secrets.map((secret) => {
      const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
      return createHmac('sha256', key).update(signed).digest('base64');
    });
    // The header may list several space-separated signatures (the service signs with the old and the new
    // secret during a rotation's grace period); one must match one of ours.
    const listed = signatures.split(' ');
    const ok =
      listed.some((s) => s.startsWith('v1,') && expected.some((e) => equalInConstantTime(s.slice(3), e))) ||
      listed.some((s) => s.startsWith('v1a,') && publicKeys.some((k) => verifiesV1a(k, signed, s.slice(4))));
    if (!ok) throw new DeliveryRejected('webhook-signature does not match');
  } else {
    if (secrets.length === 0) throw new DeliveryRejected('the delivery has no webhook-signature to check with the public key');
    const signature = header(headers, 'x-service-signature');
    if (!signature) throw new DeliveryRejected('the delivery is not signed');
    // The service puts only its current secret here; during a rotation that is the new one.
    const ok = secrets.some((secret) => equalInConstantTime(signature, `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest('hex')}`));
    if (!ok) throw new DeliveryRejected('X-Service-Signature does not match');
    // Not covered by this signature, so only a sanity check; Standard Webhooks headers bind the time.
    checkFresh(Date.parse(header(headers, 'x-service-timestamp') ?? ''), now, tolerance);
  }
  try {
    return JSON.parse(rawBody.toString('utf8')) as unknown;
  } catch {
    throw new DeliveryRejected('the delivery body is not JSON');
  }
}

/** A signed event of the service rather than a task (the test ping). */
export const isServiceEvent = (body: unknown): body is { type: string; timestamp: string; data: unknown } =>
  typeof body === 'object' && body !== null && typeof (body as { type?: unknown }).type === 'string' && !('taskId' in body);

/** verifySigned, for a task delivery: returns its payload. Throws DeliveryRejected. */
export function verifyDelivery(opts: Parameters<typeof verifySigned>[0]): Delivery {
  const payload = verifySigned(opts) as Delivery;
  if (typeof payload?.taskId !== 'string' || typeof payload.taskToken !== 'string' || typeof payload.callbackUrl !== 'string') {
    throw new DeliveryRejected('the delivery body is not a task');
  }
  return payload;
}

export interface CallbackAnswer {
  status: number;
  body: unknown;
}

/** Reports the outcome of a task: `{ result }` completes it, `{ error }` fails it. */
export async function callBack(delivery: Pick<Delivery, 'callbackUrl' | 'taskToken'>, outcome: { result: unknown } | { error: string }): Promise<CallbackAnswer> {
  const res = await fetch(delivery.callbackUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ taskToken: delivery.taskToken, ...outcome }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON; kept as text
  }
  return { status: res.status, body };
}

// The service may be restarting or busy: network errors and 5xx answers are tried again, briefly.
async function callBackWithRetries(delivery: Delivery, outcome: { result: unknown } | { error: string }): Promise<CallbackAnswer> {
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await callBack(delivery, outcome);
      if (answer.status < 500 || attempt === 4) return answer;
    } catch (error) {
      if (attempt === 4) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
  }
}

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new DeliveryRejected('the delivery is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A node:http handler for the agent's endpoint: verifies each delivery, answers 202 at once (the
 * service moves the task to in_progress), then runs `work` and calls back with what it returns, or
 * with the message of what it throws. A delivery repeated after a lost answer is not worked twice.
 */
export function deliveryHandler(opts: {
  secret: () => string | readonly string[];
  work: (delivery: Delivery) => Promise<unknown>;
  onCallback?: (delivery: Delivery, answer: CallbackAnswer) => void;
  onRejected?: (reason: string) => void;
}) {
  const working = new Set<string>();
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    let delivery: Delivery;
    try {
      const signed = { rawBody: await readRaw(req), headers: req.headers, secret: opts.secret() };
      const body = verifySigned(signed);
      if (isServiceEvent(body)) {
        // The service's test ping (and any other event): signed correctly, nothing to work on.
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, type: body.type }));
        return;
      }
      delivery = verifyDelivery(signed);
    } catch (error) {
      opts.onRejected?.((error as Error).message);
      res.writeHead(error instanceof DeliveryRejected ? 401 : 400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (error as Error).message }));
      return;
    }
    res.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":true}');
    if (working.has(delivery.taskId)) return;
    working.add(delivery.taskId);
    try {
      let outcome: { result: unknown } | { error: string };
      try {
        outcome = { result: await opts.work(delivery) };
      } catch (error) {
        outcome = { error: (error as Error).message.slice(0, 1000) || 'failed' };
      }
      opts.onCallback?.(delivery, await callBackWithRetries(delivery, outcome));
    } catch (error) {
      opts.onRejected?.(`could not call back for ${delivery.taskId}: ${(error as Error).message}`);
    } finally {
      working.delete(delivery.taskId);
    }
  };
}

/** A task as a claim hands it out: the delivery, which kind it is, and its lease. */
export interface ClaimedDelivery extends Delivery {
  // task.assigned: the task; task.input: the requester's answer to an input request (its `round`).
  type: 'task.assigned' | 'task.input';
  round?: number | null;
  lease: { expiresAt: string };
}

export interface WorkOptions {
  // The service's address (https://…) and an API key of the agent's owner with the tasks:work scope.
  serviceUrl: string;
  apiKey: string;
  agentId: string;
  // Tasks worked on at once (each claim asks for the free slots only).
  concurrency?: number;
  // How long each claim holds its task; the kit extends it at half-time while the handler runs.
  leaseSeconds?: number;
  // How long one long poll waits for work (the service allows up to 60).
  waitSeconds?: number;
  // Stops the loop: no new claims; tasks being worked on are finished and called back.
  signal?: AbortSignal;
  onCallback?: (task: ClaimedDelivery, answer: CallbackAnswer) => void;
  onError?: (message: string) => void;
}

async function serviceCall(opts: WorkOptions, path: string, body: unknown, timeoutMs: number, stop?: AbortSignal): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${opts.serviceUrl.replace(/\/$/, '')}/v1/agents/${encodeURIComponent(opts.agentId)}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${opts.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: stop ? AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]) : AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/**
 * Worker mode: claims tasks from the service and runs `handler` on each (its return value is the
 * result, what it throws the error), for as long as `signal` lets it. Needs no public address: every
 * connection goes out from the agent. Resolves once stopped and every task in hand is called back.
 */
export async function work(handler: (task: ClaimedDelivery) => Promise<unknown>, opts: WorkOptions): Promise<void> {
  const concurrency = opts.concurrency ?? 1;
  const leaseSeconds = opts.leaseSeconds ?? 300;
  const waitSeconds = opts.waitSeconds ?? 20;
  const running = new Set<Promise<void>>();
  const stopped = () => opts.signal?.aborted === true;
  let pause = 0;

  async function run(task: ClaimedDelivery): Promise<void> {
    // The lease is renewed at half its length, so a slow handler keeps its task; a worker that dies stops
    // renewing, and the service offers the task to another worker when the lease runs out.
    const renew = setInterval(() => {
      serviceCall(opts, `/tasks/${encodeURIComponent(task.taskId)}/lease`, { leaseSeconds }, 10_000).catch((e: Error) => opts.onError?.(`lease renewal: ${e.message}`));
    }, (leaseSeconds * 1000) / 2);
    try {
      let outcome: { result: unknown } | { error: string };
      try {
        outcome = { result: await handler(task) };
      } catch (error) {
        outcome = { error: (error as Error).message.slice(0, 1000) || 'failed' };
      }
      clearInterval(renew);
      opts.onCallback?.(task, await callBackWithRetries(task, outcome));
    } catch (error) {
      opts.onError?.(`could not call back for ${task.taskId}: ${(error as Error).message}`);
    } finally {
      clearInterval(renew);
    }
  }

  while (!stopped()) {
    if (running.size >= concurrency) {
      await Promise.race(running);
      continue;
    }
    let claimed: ClaimedDelivery[] = [];
    try {
      const answer = await serviceCall(opts, '/tasks/claim', { max: concurrency - running.size, waitSeconds, leaseSeconds }, (waitSeconds + 15) * 1000, opts.signal);
      if (answer.status !== 200) throw new Error(`claim answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      claimed = (answer.body as { data: ClaimedDelivery[] }).data;
      pause = 0;
    } catch (error) {
      if (stopped()) break;
      // The service may be restarting or unreachable: wait a little longer each time, up to 30 s.
      opts.onError?.((error as Error).message);
      pause = Math.min(Math.max(pause * 2, 500), 30_000);
      await new Promise((resolve) => setTimeout(resolve, pause));
      continue;
    }
    for (const task of claimed) {
      const job: Promise<void> = run(task).finally(() => running.delete(job));
      running.add(job);
    }
  }
  await Promise.all(running);
}
