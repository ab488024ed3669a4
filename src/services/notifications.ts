// Operational events for agent owners: endpoint.failing, endpoint.disabled, delivery.exhausted and
// delivery.recovered. Each is a row (the owner's list and the dashboard's banner read them) and, when
// the owner set a notificationUrl, a signed POST retried on the delivery schedule. The notification's id
// is its webhook-id on every attempt, so a receiver can tell a retry from a new event.
import type { Deps } from '../deps.js';
import type { SqlDb } from '../db/kysely.js';
import { ownerWithNotificationUrl } from '../stores/agent-store.js';
import { insertNotification } from '../stores/notification-store.js';
import { json } from '../stores/json.js';
import { nextRetryDelayMs } from '../delivery/backoff.js';
import { judgeAttempt } from '../delivery/attempt-verdict.js';
import { sendSignedEvent } from '../delivery/signed-event.js';
import { generateWebhookSecret } from '../delivery/signing.js';
import { checkEndpointUrl } from '../delivery/url-guard.js';
import { invalid } from '../errors.js';
import { newId } from '../ids.js';
import { enqueue, jobCallSql } from '../jobs/enqueue.js';
import { deliverNotification } from '../jobs/specs/notification-deliver.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { Viewer } from './accounts.js';
import type { AccountInput } from './notification-input.js';

export const OPERATIONAL_EVENTS = ['endpoint.failing', 'endpoint.disabled', 'delivery.exhausted', 'delivery.recovered'] as const;
export type OperationalEvent = (typeof OPERATIONAL_EVENTS)[number];

export function notificationService(deps: Deps) {
  const { prisma, config, clock, logger, secretBox } = deps;

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
        sendable ? jobCallSql(deliverNotification, { notificationId: id }) : null,
      );
    },

    // Job notification.deliver: one attempt. Safe to run again: a finished notification is left alone.
    async attempt(notificationId: string): Promise<void> {
      const n = await prisma.notification.findUnique({ where: { id: notificationId }, include: { user: { select: { notificationUrl: true, notificationSecretEnc: true } } } });
      if (!n || n.status !== 'pending') return;
      const { notificationUrl, notificationSecretEnc } = n.user;
      if (!notificationUrl) {
        await prisma.notification.update({ where: { id: n.id }, data: { status: 'failed', lastError: 'no notificationUrl set', nextAttemptAt: null } });
        return;
      }
      const result = await sendSignedEvent({
        url: notificationUrl,
        event: { type: n.type, data: n.data as Record<string, unknown> },
        msgId: n.id,
        signedAt: clock.now(),
        secrets: notificationSecretEnc ? [secretBox.open(notificationSecretEnc)] : [],
        timeoutMs: config.deliveryTimeoutMs,
        allowPrivate: config.allowPrivateEndpoints,
      });
      const number = n.attemptCount + 1;
      const verdict = judgeAttempt(result);
      if (verdict.taken) {
        await prisma.notification.update({ where: { id: n.id }, data: { status: 'succeeded', attemptCount: number, lastError: null, nextAttemptAt: null } });
        return;
      }
      const { error, gone, retryAfterMs } = verdict;
      if (gone || number >= config.deliveryMaxAttempts) {
        await prisma.notification.update({ where: { id: n.id }, data: { status: 'failed', attemptCount: number, lastError: error, nextAttemptAt: null } });
        logger.warn({ notificationId: n.id, type: n.type, error }, 'notification given up');
        return;
      }
      const delay = nextRetryDelayMs(number + 1, {
        schedule: deps.retrySchedule,
        retryAfterMs,
      });
      const nextAt = new Date(clock.now().getTime() + delay);
      await prisma.$transaction(async (t) => {
        await t.notification.update({ where: { id: n.id }, data: { attemptCount: number, lastError: error, nextAttemptAt: nextAt } });
        await enqueue(t, deliverNotification, { notificationId: n.id }, { runAt: nextAt });
      });
    },

    listForUser(viewer: Viewer, limit: number) {
      return prisma.notification.findMany({ where: { userId: viewer.id }, orderBy: { id: 'desc' }, take: limit });
    },

    // Sets (or clears) where the events go. A secret is made the first time a URL is set and shown in
    // this answer only; later changes of the URL keep it. Clearing the URL drops the secret.
    async updateAccount(viewer: Viewer, input: AccountInput): Promise<{ notificationUrl: string | null; notificationSecret: string | null }> {
      if (input.notificationUrl === undefined) {
        const user = await prisma.user.findUniqueOrThrow({ where: { id: viewer.id }, select: { notificationUrl: true } });
        return { notificationUrl: user.notificationUrl, notificationSecret: null };
      }
      const url = input.notificationUrl;
      if (url) {
        // The same address policy as agents' endpoints, resolved now for an early, readable refusal.
        const check = await checkEndpointUrl(url, { allowPrivate: config.allowPrivateEndpoints });
        if (!check.ok) throw invalid('notificationUrl', `notificationUrl: ${check.reason}`);
      }
      return prisma.$transaction(async (tx) => {
        const user = await tx.user.findUniqueOrThrow({ where: { id: viewer.id }, select: { notificationSecretEnc: true } });
        if (!url) {
          await tx.user.update({ where: { id: viewer.id }, data: { notificationUrl: null, notificationSecretEnc: null } });
          return { notificationUrl: null, notificationSecret: null };
        }
        const secret = user.notificationSecretEnc ? null : generateWebhookSecret();
        await tx.user.update({ where: { id: viewer.id }, data: { notificationUrl: url, ...(secret ? { notificationSecretEnc: secretBox.seal(secret) } : {}) } });
        return { notificationUrl: url, notificationSecret: secret };
      });
    },
  };
}

export type NotificationService = ReturnType<typeof notificationService>;
