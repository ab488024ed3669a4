// The owner's tools for an agent's endpoint: a signed test ping on demand, and a conformance check that
// tells whether the endpoint really verifies signatures (it must take a correctly signed request and
// refuse a wrongly signed one and one with a stale timestamp).
import type { Deps } from '../deps.js';
import { generateWebhookSecret } from '../delivery/signing.js';
import { newEventId, sendSignedEvent, type SignedEventResult } from '../delivery/signed-event.js';
import { AppError, conflict } from '../errors.js';
import type { Clock } from '../deps.js';
import type { Viewer } from './accounts/index.js';
import type { AgentService } from './agents.js';

// How much of the agent's answer a test ping shows.
export const PING_BODY_START_BYTES = 512;
// Older than any verifier's tolerance (Standard Webhooks libraries allow 5 minutes).
const STALE_BY_MS = 60 * 60 * 1000;

export interface PingResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  bodyStart: string | null;
  signed: boolean;
  at: Date;
}

export type CheckCase = 'valid' | 'wrong_signature' | 'stale_timestamp';

export interface CheckResult {
  // The endpoint took the correctly signed request, and refused (4xx) the two others.
  verifiesSignatures: boolean;
  acceptedValid: boolean;
  refusedWrongSignature: boolean;
  refusedStaleTimestamp: boolean;
  requests: Array<{ case: CheckCase; statusCode: number | null; latencyMs: number; error: string | null }>;
}

const WINDOW_MS = 60_000;

// Test requests per agent in a fixed one-minute window, in this process's memory (each process of the
// service has its own count). A ping is one request, a check three.
function testBudget(perMinute: number, clock: Clock) {
  const windows = new Map<string, { start: number; used: number }>();
  return (agentId: string, requests: number) => {
    const now = clock.now().getTime();
    for (const [id, w] of windows) if (now - w.start >= WINDOW_MS) windows.delete(id);
    const window = windows.get(agentId) ?? { start: now, used: 0 };
    if (window.used + requests > perMinute) {
      const retryAfterSeconds = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
      throw new AppError('RATE_LIMITED', `at most ${perMinute} test requests to an agent's endpoint a minute; retry in ${retryAfterSeconds}s`, {
        details: { retryAfterSeconds },
      });
    }
    window.used += requests;
    windows.set(agentId, window);
  };
}

const accepted = (r: SignedEventResult) => r.kind === 'response' && r.status >= 200 && r.status < 300;
const refused = (r: SignedEventResult) => r.kind === 'response' && r.status >= 400 && r.status < 500;

export function webhookTools(deps: Deps, agents: AgentService, hooks: { pingSucceeded(agentId: string): Promise<void> }) {
  const { config, clock } = deps;
  const spend = testBudget(config.webhookTestPerMinute, clock);

  async function ownedAgent(viewer: Viewer, agentId: string) {
    const agent = await agents.ownedAgent(viewer, agentId);
    if (agent.deliveryMode === 'pull') throw conflict('the agent pulls its tasks and has no endpoint to test', { deliveryMode: agent.deliveryMode });
    return agent;
  }

  function send(url: string, secrets: readonly string[], signedAt: Date, agentId: string, keepBodyBytes?: number) {
    return sendSignedEvent({
      url,
      event: { type: 'ping', data: { agentId } },
      msgId: newEventId('ping'),
      signedAt,
      secrets,
      timeoutMs: config.deliveryTimeoutMs,
      allowPrivate: config.allowPrivateEndpoints,
      resolve: deps.resolveHost,
      keepBodyBytes,
    });
  }

  return {
    // A signed `ping` to the agent's endpoint (unsigned when it has no secret).
    async ping(viewer: Viewer, agentId: string): Promise<PingResult> {
      const agent = await ownedAgent(viewer, agentId);
      spend(agent.id, 1);
      const current = agents.webhookSecretOf(agent);
      const secrets = current ? [current, ...agents.previousWebhookSecretsOf(agent)] : [];
      const at = clock.now();
      const r = await send(agent.endpoint, secrets, at, agent.id, PING_BODY_START_BYTES);
      if (accepted(r)) await hooks.pingSucceeded(agent.id);
      return {
        ok: accepted(r),
        statusCode: r.kind === 'response' ? r.status : null,
        latencyMs: Math.round(r.latencyMs),
        error: r.kind === 'error' ? r.error : null,
        bodyStart: r.kind === 'response' ? r.bodyStart : null,
        signed: secrets.length > 0,
        at,
      };
    },

    // Three pings, one after the other: correctly signed, signed with a secret that is not the agent's,
    // and correctly signed an hour ago. A 409 without a secret: there is nothing to verify.
    async check(viewer: Viewer, agentId: string): Promise<CheckResult> {
      const agent = await ownedAgent(viewer, agentId);
      const secret = agents.webhookSecretOf(agent);
      if (!secret) throw conflict('the agent has no webhook secret; set one first (POST /v1/agents/:id/webhook-secret)', { hasWebhookSecret: false });
      spend(agent.id, 3);
      const now = clock.now();
      const cases: Array<[CheckCase, readonly string[], Date]> = [
        ['valid', [secret], now],
        ['wrong_signature', [generateWebhookSecret()], now],
        ['stale_timestamp', [secret], new Date(now.getTime() - STALE_BY_MS)],
      ];
      const results: Array<[CheckCase, SignedEventResult]> = [];
      for (const [name, secrets, at] of cases) results.push([name, await send(agent.endpoint, secrets, at, agent.id)]);
      const [valid, wrong, stale] = results.map(([, r]) => r) as [SignedEventResult, SignedEventResult, SignedEventResult];
      const out = { acceptedValid: accepted(valid), refusedWrongSignature: refused(wrong), refusedStaleTimestamp: refused(stale) };
      return {
        ...out,
        verifiesSignatures: out.acceptedValid && out.refusedWrongSignature && out.refusedStaleTimestamp,
        requests: results.map(([name, r]) => ({
          case: name,
          statusCode: r.kind === 'response' ? r.status : null,
          latencyMs: Math.round(r.latencyMs),
          error: r.kind === 'error' ? r.error : null,
        })),
      };
    },
  };
}

export type WebhookTools = ReturnType<typeof webhookTools>;
