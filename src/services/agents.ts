// The agent registry: owners create, change and remove their agents and manage webhook secrets.
import type { Deps } from '../deps.js';
import type { Db, Tx } from '../db/client.js';
import type { Agent, Prisma } from '../generated/prisma/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { generateWebhookSecret } from '../delivery/signing.js';
import { generateSigningKey } from '../delivery/ed25519-signing.js';
import { DEFAULT_SECRET_GRACE_SECONDS } from './webhook-secret-input.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueue } from '../jobs/enqueue.js';
import { agentChanged as agentChangedJob } from '../jobs/specs/agent-changed.js';
import { checkEndpoint, needsEndpoint, type AgentInput } from './agent-input.js';
import type { Viewer } from './accounts.js';
import { slugify } from './slug.js';
import { NON_TERMINAL } from './task-states.js';

async function agentChanged(tx: Db, agentId: string) {
  await enqueue(tx, agentChangedJob, { agentId });
}

// The first free slug among base, base-2, base-3…. Writers of the same base take turns (a transaction
// lock on the base), so each sees the slugs the ones before it committed. Only different bases can still
// meet (a name "X 2" and the second "X"); the unique index catches that and the caller tries again.
// Another agent's previous slugs count as taken: they still lead to that agent.
async function freeSlug(tx: Tx, name: string, exceptId?: string): Promise<string> {
  const base = slugify(name);
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`agent-slug:${base}`}))`;
  const others = exceptId ? { not: exceptId } : undefined;
  const [current, previous] = await Promise.all([
    tx.agent.findMany({ where: { slug: { startsWith: base }, id: others }, select: { slug: true } }),
    tx.agentPreviousSlug.findMany({ where: { slug: { startsWith: base }, agentId: others }, select: { slug: true } }),
  ]);
  const taken = new Set([...current, ...previous].map((a) => a.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

// The relations a GraphQL selection needs (the `query` of a prismaField), read with the row itself.
type AgentQuery = { include?: Prisma.AgentInclude };

export function agentService(deps: Deps) {
  const { prisma, config } = deps;

  // A fresh v1a key pair as the agent's columns: the private key sealed, the public key as it is shown.
  function sealedSigningKey() {
    const pair = generateSigningKey();
    return { signingKeyEnc: deps.secretBox.seal(pair.privateKey), signingPublicKey: pair.publicKey };
  }

  async function ownedAgent(tx: Db, viewer: Viewer, id: string, query: AgentQuery = {}): Promise<Agent> {
    const agent = await tx.agent.findUnique({ ...query, where: { id } });
    if (!agent) throw notFound('agent');
    if (agent.ownerId !== viewer.id) throw forbidden('you do not own this agent');
    return agent;
  }

  async function withSlugRetry<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        // Same-name writers queue on the slug lock, so allow the waits the service's other transactions allow.
        return await prisma.$transaction(work, { maxWait: 10_000, timeout: 15_000 });
      } catch (error) {
        // Only different bases can still meet on one slug (see freeSlug): try again with a fresh look.
        if (!isUniqueViolation(error) || attempt >= 9) throw error;
      }
    }
  }

  return {
    ownedAgent: (viewer: Viewer, id: string, query?: AgentQuery) => ownedAgent(prisma, viewer, id, query),

    listOwned(viewer: Viewer, query: AgentQuery = {}) {
      return prisma.agent.findMany({ ...query, where: { ownerId: viewer.id }, orderBy: { createdAt: 'asc' } });
    },

    // `fields` were checked against agentInput where they came in (the GraphQL argument); create has
    // name and endpoint.
    async create(viewer: Viewer, fields: AgentInput, query: AgentQuery = {}): Promise<Agent> {
      needsEndpoint(fields.deliveryMode ?? 'push', fields.endpoint ?? '');
      await checkEndpoint(fields.endpoint, config.allowPrivateEndpoints);
      return withSlugRetry(async (tx) => {
        const agent = await tx.agent.create({
          ...query,
          data: {
            ...fields,
            id: newId('agt'),
            ownerId: viewer.id,
            name: fields.name!,
            endpoint: fields.endpoint ?? '',
            ...sealedSigningKey(),
            slug: await freeSlug(tx, fields.name!),
          },
        });
        await agentChanged(tx, agent.id);
        return agent;
      });
    },

    async update(viewer: Viewer, id: string, fields: AgentInput, query: AgentQuery = {}): Promise<Agent> {
      await checkEndpoint(fields.endpoint, config.allowPrivateEndpoints);
      return withSlugRetry(async (tx) => {
        const agent = await ownedAgent(tx, viewer, id);
        needsEndpoint(fields.deliveryMode ?? agent.deliveryMode, fields.endpoint ?? agent.endpoint);
        const slug = fields.name !== undefined && fields.name !== agent.name ? await freeSlug(tx, fields.name, id) : undefined;
        // updatedAt is refreshed even when nothing else changed: the owner did save.
        if (slug && slug !== agent.slug) {
          // The old slug keeps leading here; a slug the agent had before and takes back is current again.
          await tx.agentPreviousSlug.upsert({ where: { slug: agent.slug }, create: { slug: agent.slug, agentId: id }, update: {} });
          await tx.agentPreviousSlug.deleteMany({ where: { slug, agentId: id } });
        }
        const updated = await tx.agent.update({ ...query, where: { id }, data: { ...fields, ...(slug ? { slug } : {}), updatedAt: deps.clock.now() } });
        await agentChanged(tx, id);
        return updated;
      });
    },

    /**
     * Refused (409) while the agent has unfinished tasks, or while requesters hold credits for it: deleting
     * would silently destroy credits they paid for. The owner can deactivate the agent instead (status
     * inactive: it takes no new tasks, and the credits stay usable once it is active again).
     */
    async remove(viewer: Viewer, id: string): Promise<void> {
      await prisma.$transaction(async (tx) => {
        await ownedAgent(tx, viewer, id);
        // The row lock makes a concurrent credit purchase or grant (whose balance row references the
        // agent) wait for this decision instead of adding a balance behind the check below.
        await tx.$queryRaw`SELECT id FROM agents WHERE id = ${id} FOR UPDATE`;
        const inFlight = await tx.task.count({ where: { agentId: id, status: { in: [...NON_TERMINAL] } } });
        if (inFlight > 0) throw conflict(`the agent has ${inFlight} unfinished task(s); wait for them or cancel them first`);
        const held = await tx.creditBalance.aggregate({ where: { agentId: id, balance: { gt: 0 } }, _sum: { balance: true }, _count: true });
        const outstandingCredits = held._sum.balance ?? 0;
        if (outstandingCredits > 0) {
          throw conflict(
            `requesters still hold ${outstandingCredits} credit(s) for this agent (${held._count} requester(s)); deleting it would destroy them. ` +
              'Deactivate it instead (PUT with "status": "inactive")',
            { outstandingCredits, creditHolders: held._count },
          );
        }
        await tx.agent.delete({ where: { id } });
        await agentChanged(tx, id);
      });
    },

    // Generates or rotates the secret. The plain secret exists only in this return value. The secret it
    // replaces keeps signing deliveries (beside the new one) for `graceSeconds`, so the owner can roll
    // the new secret out to his agent without refusing deliveries meanwhile; 0 ends it at once.
    async rotateWebhookSecret(viewer: Viewer, id: string, graceSeconds: number = DEFAULT_SECRET_GRACE_SECONDS) {
      const secret = generateWebhookSecret();
      const previousSecretExpiresAt = await prisma.$transaction(async (tx) => {
        await ownedAgent(tx, viewer, id);
        const current = await tx.agent.findUniqueOrThrow({ where: { id }, select: { webhookSecretEnc: true } });
        const keepOld = current.webhookSecretEnc !== null && graceSeconds > 0;
        const endsAt = keepOld ? new Date(deps.clock.now().getTime() + graceSeconds * 1000) : null;
        await tx.agent.update({
          where: { id },
          data: {
            webhookSecretEnc: deps.secretBox.seal(secret),
            previousWebhookSecretEnc: keepOld ? current.webhookSecretEnc : null,
            previousWebhookSecretExpiresAt: endsAt,
          },
        });
        return endsAt;
      });
      return { secret, previousSecretExpiresAt };
    },

    async removeWebhookSecret(viewer: Viewer, id: string, query: AgentQuery = {}): Promise<Agent> {
      return prisma.$transaction(async (tx) => {
        await ownedAgent(tx, viewer, id);
        return tx.agent.update({ ...query, where: { id }, data: { webhookSecretEnc: null, previousWebhookSecretEnc: null, previousWebhookSecretExpiresAt: null } });
      });
    },

    // The v1a signing keys (current first; a rotated-out one while its overlap runs, by the clock).
    signingKeysOf(agent: Pick<Agent, 'signingKeyEnc' | 'previousSigningKeyEnc' | 'previousSigningKeyExpiresAt'>): string[] {
      if (!agent.signingKeyEnc) return [];
      const keys = [deps.secretBox.open(agent.signingKeyEnc)];
      if (agent.previousSigningKeyEnc && agent.previousSigningKeyExpiresAt && agent.previousSigningKeyExpiresAt > deps.clock.now()) {
        keys.push(deps.secretBox.open(agent.previousSigningKeyEnc));
      }
      return keys;
    },

    /**
     * A new v1a key pair (or the first, for an agent made before keys existed). The key it replaces keeps
     * signing beside it for `graceSeconds`, so the agent can take the new public key without refusing
     * deliveries meanwhile; 0 ends it at once. The private key never leaves the service.
     */
    async rotateSigningKey(viewer: Viewer, id: string, graceSeconds: number = DEFAULT_SECRET_GRACE_SECONDS) {
      const next = sealedSigningKey();
      return prisma.$transaction(async (tx) => {
        await ownedAgent(tx, viewer, id);
        const current = await tx.agent.findUniqueOrThrow({ where: { id }, select: { signingKeyEnc: true, signingPublicKey: true } });
        const keepOld = current.signingKeyEnc !== null && graceSeconds > 0;
        const endsAt = keepOld ? new Date(deps.clock.now().getTime() + graceSeconds * 1000) : null;
        await tx.agent.update({
          where: { id },
          data: {
            ...next,
            previousSigningKeyEnc: keepOld ? current.signingKeyEnc : null,
            previousSigningPublicKey: keepOld ? current.signingPublicKey : null,
            previousSigningKeyExpiresAt: endsAt,
          },
        });
        return { signingPublicKey: next.signingPublicKey, previousSigningPublicKey: keepOld ? current.signingPublicKey : null, previousKeyExpiresAt: endsAt };
      });
    },

    webhookSecretOf(agent: Pick<Agent, 'webhookSecretEnc'>): string | null {
      return agent.webhookSecretEnc ? deps.secretBox.open(agent.webhookSecretEnc) : null;
    },

    // The secrets a rotation replaced whose grace period still runs (now, by the clock).
    previousWebhookSecretsOf(agent: Pick<Agent, 'webhookSecretEnc' | 'previousWebhookSecretEnc' | 'previousWebhookSecretExpiresAt'>): string[] {
      if (!agent.webhookSecretEnc || !agent.previousWebhookSecretEnc) return [];
      if (!agent.previousWebhookSecretExpiresAt || agent.previousWebhookSecretExpiresAt <= deps.clock.now()) return [];
      return [deps.secretBox.open(agent.previousWebhookSecretEnc)];
    },

    // When the previous secret stops signing; null when none is in its grace period.
    previousWebhookSecretExpiresAt(agent: Pick<Agent, 'previousWebhookSecretEnc' | 'previousWebhookSecretExpiresAt'>): Date | null {
      const endsAt = agent.previousWebhookSecretEnc ? agent.previousWebhookSecretExpiresAt : null;
      return endsAt && endsAt > deps.clock.now() ? endsAt : null;
    },
  };
}

export type AgentService = ReturnType<typeof agentService>;
