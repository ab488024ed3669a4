// Operational events for agent owners: endpoint.failing, endpoint.disabled, delivery.exhausted and
// delivery.recovered. Each is a row (the owner's list and the dashboard's banner read them) and, when
// the owner set a notificationUrl, a signed POST retried on the delivery schedule. The notification's id
// is its webhook-id on every attempt, so a receiver can tell a retry from a new event.
import { z } from 'zod';
import type { Deps } from '../deps.js';
import type { SqlDb } from '../db/kysely.js';
import { ownerWithNotificationUrl } from '../stores/agent-store.js';
import { finishNotification, insertNotification, notificationToSend, retryNotification } from '../stores/notification-store.js';
import { notificationSettings, setNotificationUrl } from '../stores/accounts-store.js';
import { withTransaction } from '../db/transaction.js';
import { json } from '../stores/json.js';
import { nextRetryDelayMs } from '../delivery/backoff.js';
import { judgeAttempt } from '../delivery/attempt-verdict.js';
import { sendSignedEvent } from '../delivery/signed-event.js';
import { generateWebhookSecret } from '../delivery/signing.js';
import { checkEndpointUrl } from '../delivery/url-guard.js';
import { invalid } from '../errors.js';
import { newId } from '../ids.js';
import { jobCall } from '../stores/job-store.js';
import { deliverNotification } from '../jobs/specs/notification-deliver.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { Viewer } from './accounts/index.js';
import type { AccountInput } from './notification-input.js';

// The stored event's data: an object, as notify wrote it.
const eventData = z.record(z.string(), z.unknown());

export const OPERATIONAL_EVENTS = ['endpoint.failing', 'endpoint.disabled', 'delivery.exhausted', 'delivery.recovered'] as const;
export type OperationalEvent = (typeof OPERATIONAL_EVENTS)[number];

export function notificationService(deps: Deps) {
  const { config, clock, logger, secretBox } = deps;

  return {
    // Records the event for the agent's owner, in the transaction of what caused it, and queues its POST.
    async notify(tx: SqlDb, agentId: string, type: OperationalEvent, data: Record<string, unknown>): Promise<void> {
      const agent = await ownerWithNotificationUrl(tx, agentId);
      if (!agent) return;
      const id = newId('ntf');
      const sendable = agent.notificationUrl !== null;
      await insertNotification(
        tx,
        {
          id,
          userId: agent.ownerId,
          agentId,
          type,
          data: json({ agentId, ...data } as Prisma.InputJsonValue),
          now: clock.now(),
          ...(sendable ? {} : { unsendable: { lastError: 'no notificationUrl set' } }),
        },
        sendable ? jobCall(deliverNotification, { notificationId: id }) : null,
      );
    },

    // Job notification.deliver: one attempt. Safe to run again: a finished notification is left alone.
    async attempt(notificationId: string): Promise<void> {
      const n = await notificationToSend(deps.sql, notificationId);
      if (!n || n.status !== 'pending') return;
      const { notificationUrl, notificationSecretEnc } = n;
      if (!notificationUrl) {
        await finishNotification(deps.sql, n.id, { status: 'failed', lastError: 'no notificationUrl set' }, clock.now());
        return;
      }
      const result = await sendSignedEvent({
        url: notificationUrl,
        event: { type: n.type, data: eventData.parse(n.data) },
        msgId: n.id,
        signedAt: clock.now(),
        secrets: notificationSecretEnc ? [secretBox.open(notificationSecretEnc)] : [],
        timeoutMs: config.deliveryTimeoutMs,
        allowPrivate: config.allowPrivateEndpoints,
        resolve: deps.resolveHost,
      });
      const number = n.attemptCount + 1;
      const verdict = judgeAttempt(result);
      if (verdict.taken) {
        await finishNotification(deps.sql, n.id, { status: 'succeeded', attemptCount: number, lastError: null }, clock.now());
        return;
      }
      const { error, gone, retryAfterMs } = verdict;
      if (gone || number >= config.deliveryMaxAttempts) {
        await finishNotification(deps.sql, n.id, { status: 'failed', attemptCount: number, lastError: error }, clock.now());
        logger.warn({ notificationId: n.id, type: n.type, error }, 'notification given up');
        return;
      }
      const delay = nextRetryDelayMs(number + 1, {
        schedule: deps.retrySchedule,
        retryAfterMs,
      });
      const nextAt = new Date(clock.now().getTime() + delay);
      await retryNotification(
        deps.sql,
        { id: n.id, attemptCount: number, lastError: error, nextAt, now: clock.now() },
        jobCall(deliverNotification, { notificationId: n.id }, { runAt: nextAt }),
      );
    },

    // Sets (or clears) where the events go. A secret is made the first time a URL is set and shown in
    // this answer only; later changes of the URL keep it. Clearing the URL drops the secret.
    async updateAccount(viewer: Viewer, input: AccountInput): Promise<{ notificationUrl: string | null; notificationSecret: string | null }> {
      if (input.notificationUrl === undefined) {
        const user = await notificationSettings(deps.sql, viewer.id);
        return { notificationUrl: user.notificationUrl, notificationSecret: null };
      }
      const url = input.notificationUrl;
      if (url) {
        // The same address policy as agents' endpoints, resolved now for an early, readable refusal.
        const check = await checkEndpointUrl(url, { allowPrivate: config.allowPrivateEndpoints });
        if (!check.ok) throw invalid('notificationUrl', `notificationUrl: ${check.reason}`);
      }
      return withTransaction(deps.sql, async (tx) => {
        const user = await notificationSettings(tx, viewer.id);
        if (!url) {
          await setNotificationUrl(tx, viewer.id, null, null, clock.now());
          return { notificationUrl: null, notificationSecret: null };
        }
        const secret = user.notificationSecretEnc ? null : generateWebhookSecret();
        await setNotificationUrl(tx, viewer.id, url, secret ? secretBox.seal(secret) : undefined, clock.now());
        return { notificationUrl: url, notificationSecret: secret };
      });
    },
  };
}

export type NotificationService = ReturnType<typeof notificationService>;
