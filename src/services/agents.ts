// The agent registry: owners create, change and remove their agents and manage webhook secrets. SQL in
// stores/agent-store.ts; the GraphQL fields read the agent they return (with its relations) themselves.
import type { Deps } from '../deps.js';
import type { SqlDb, SqlTx } from '../db/kysely.js';
import { withTransaction } from '../db/transaction.js';
import { isUniqueViolation } from '../db/errors.js';
import { generateWebhookSecret } from '../delivery/signing.js';
import { generateSigningKey } from '../delivery/ed25519-signing.js';
import { DEFAULT_SECRET_GRACE_SECONDS } from './webhook-secret-input.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueue } from '../stores/job-store.js';
import { agentChanged as agentChangedJob } from '../jobs/specs/agent-changed.js';
import {
  agentById,
  deleteAgent,
  insertAgent,
  lockAgent,
  lockSlugBase,
  moveSlug,
  setWebhookSecrets,
  slugsTaken,
  updateAgent,
  type AgentFields,
  type AgentRow,
} from '../stores/agent-store.js';
import { heldCredits } from '../stores/credit-store.js';
import { agentTaskCount } from '../stores/task-store.js';
import { checkEndpoint, needsEndpoint } from './agent-input.js';
import type { Viewer } from './accounts/index.js';
import { slugify } from './slug.js';
import { NON_TERMINAL } from './task-states.js';

async function agentChanged(tx: SqlDb, agentId: string) {
  await enqueue(tx, agentChangedJob, { agentId });
}

// The first free slug among base, base-2, base-3…. Writers of the same base take turns (a transaction
// lock on the base), so each sees the slugs the ones before it committed. Only different bases can still
// meet (a name "X 2" and the second "X"); the unique index catches that and the caller tries again.
// Another agent's previous slugs count as taken: they still lead to that agent.
async function freeSlug(tx: SqlTx, name: string, exceptId?: string): Promise<string> {
  const base = slugify(name);
  await lockSlugBase(tx, base);
  const taken = new Set(await slugsTaken(tx, base, exceptId));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

// The agent, if the viewer owns it: 404 when there is none, 403 when it is someone else's.
export function mustOwn<A extends { ownerId: string }>(viewer: Viewer, agent: A | null | undefined): A {
  if (!agent) throw notFound('agent');
  if (agent.ownerId !== viewer.id) throw forbidden('you do not own this agent');
  return agent;
}

export function agentService(deps: Deps) {
  const { config } = deps;

  // A fresh v1a key pair as the agent's columns: the private key sealed, the public key as it is shown.
  function sealedSigningKey() {
    const pair = generateSigningKey();
    return { signingKeyEnc: deps.secretBox.seal(pair.privateKey), signingPublicKey: pair.publicKey };
  }

  const ownedAgent = async (db: SqlDb, viewer: Viewer, id: string): Promise<AgentRow> => mustOwn(viewer, await agentById(db, id));

  async function withSlugRetry<T>(work: (tx: SqlTx) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await withTransaction(deps.sql, work);
      } catch (error) {
        // Only different bases can still meet on one slug (see freeSlug): try again with a fresh look.
        if (!isUniqueViolation(error) || attempt >= 9) throw error;
      }
    }
  }

  return {
    ownedAgent: (viewer: Viewer, id: string) => ownedAgent(deps.sql, viewer, id),
    mustOwn,

    // `fields` were checked against agentInput where they came in (the GraphQL argument); create has
    // name and endpoint (a pulling agent may leave the endpoint out). The new agent's id.
    async create(viewer: Viewer, fields: AgentFields & { name?: string; endpoint?: string }): Promise<string> {
      needsEndpoint(fields.deliveryMode ?? 'push', fields.endpoint ?? '');
      await checkEndpoint(fields.endpoint, config.allowPrivateEndpoints);
      return withSlugRetry(async (tx) => {
        const id = newId('agt');
        const slug = await freeSlug(tx, fields.name!);
        await insertAgent(tx, { ...fields, id, ownerId: viewer.id, name: fields.name!, endpoint: fields.endpoint ?? '', slug, ...sealedSigningKey() }, deps.clock.now());
        await agentChanged(tx, id);
        return id;
      });
    },

    async update(viewer: Viewer, id: string, fields: AgentFields & { endpoint?: string }): Promise<string> {
      await checkEndpoint(fields.endpoint, config.allowPrivateEndpoints);
      return withSlugRetry(async (tx) => {
        const agent = await ownedAgent(tx, viewer, id);
        needsEndpoint(fields.deliveryMode ?? agent.deliveryMode, fields.endpoint ?? agent.endpoint);
        const slug = fields.name !== undefined && fields.name !== null && fields.name !== agent.name ? await freeSlug(tx, fields.name, id) : undefined;
        if (slug && slug !== agent.slug) await moveSlug(tx, id, agent.slug, slug);
        // updatedAt is refreshed even when nothing else changed: the owner did save.
        await updateAgent(tx, id, { ...fields, ...(slug ? { slug } : {}) }, deps.clock.now());
        await agentChanged(tx, id);
        return id;
      });
    },

    /**
     * Refused (409) while the agent has unfinished tasks, or while requesters hold credits for it: deleting
     * would silently destroy credits they paid for. The owner can deactivate the agent instead (status
     * inactive: it takes no new tasks, and the credits stay usable once it is active again).
     */
    async remove(viewer: Viewer, id: string): Promise<void> {
      await withTransaction(deps.sql, async (tx) => {
        await ownedAgent(tx, viewer, id);
        // The row lock makes a concurrent credit purchase or grant (whose balance row references the
        // agent) wait for this decision instead of adding a balance behind the check below.
        await lockAgent(tx, id);
        const inFlight = await agentTaskCount(tx, id, NON_TERMINAL);
        if (inFlight > 0) throw conflict(`the agent has ${inFlight} unfinished task(s); wait for them or cancel them first`);
        const held = await heldCredits(tx, id);
        if (held.credits > 0) {
          throw conflict(
            `requesters still hold ${held.credits} credit(s) for this agent (${held.holders} requester(s)); deleting it would destroy them. ` +
              'Deactivate it instead (PUT with "status": "inactive")',
            { outstandingCredits: held.credits, creditHolders: held.holders },
          );
        }
        await deleteAgent(tx, id);
        await agentChanged(tx, id);
      });
    },

    // Generates or rotates the secret. The plain secret exists only in this return value. The secret it
    // replaces keeps signing deliveries (beside the new one) for `graceSeconds`, so the owner can roll
    // the new secret out to his agent without refusing deliveries meanwhile; 0 ends it at once.
    async rotateWebhookSecret(viewer: Viewer, id: string, graceSeconds: number = DEFAULT_SECRET_GRACE_SECONDS) {
      const secret = generateWebhookSecret();
      const previousSecretExpiresAt = await withTransaction(deps.sql, async (tx) => {
        const current = await ownedAgent(tx, viewer, id);
        const keepOld = current.webhookSecretEnc !== null && graceSeconds > 0;
        const endsAt = keepOld ? new Date(deps.clock.now().getTime() + graceSeconds * 1000) : null;
        await setWebhookSecrets(tx, id, {
          webhookSecretEnc: deps.secretBox.seal(secret),
          previousWebhookSecretEnc: keepOld ? current.webhookSecretEnc : null,
          previousWebhookSecretExpiresAt: endsAt,
        }, deps.clock.now());
        return endsAt;
      });
      return { secret, previousSecretExpiresAt };
    },

    async removeWebhookSecret(viewer: Viewer, id: string): Promise<void> {
      await withTransaction(deps.sql, async (tx) => {
        await ownedAgent(tx, viewer, id);
        await setWebhookSecrets(tx, id, { webhookSecretEnc: null, previousWebhookSecretEnc: null, previousWebhookSecretExpiresAt: null }, deps.clock.now());
      });
    },

    // The v1a signing keys (current first; a rotated-out one while its overlap runs, by the clock).
    signingKeysOf(agent: Pick<AgentRow, 'signingKeyEnc' | 'previousSigningKeyEnc' | 'previousSigningKeyExpiresAt'>): string[] {
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
      return withTransaction(deps.sql, async (tx) => {
        await lockAgent(tx, id);
        const current = await ownedAgent(tx, viewer, id);
        const keepOld = current.signingKeyEnc !== null && graceSeconds > 0;
        const endsAt = keepOld ? new Date(deps.clock.now().getTime() + graceSeconds * 1000) : null;
        await updateAgent(
          tx,
          id,
          { ...next, previousSigningKeyEnc: keepOld ? current.signingKeyEnc : null, previousSigningPublicKey: keepOld ? current.signingPublicKey : null, previousSigningKeyExpiresAt: endsAt },
          deps.clock.now(),
        );
        return { signingPublicKey: next.signingPublicKey, previousSigningPublicKey: keepOld ? current.signingPublicKey : null, previousKeyExpiresAt: endsAt };
      });
    },

    webhookSecretOf(agent: Pick<AgentRow, 'webhookSecretEnc'>): string | null {
      return agent.webhookSecretEnc ? deps.secretBox.open(agent.webhookSecretEnc) : null;
    },

    // The secrets a rotation replaced whose grace period still runs (now, by the clock).
    previousWebhookSecretsOf(agent: Pick<AgentRow, 'webhookSecretEnc' | 'previousWebhookSecretEnc' | 'previousWebhookSecretExpiresAt'>): string[] {
      if (!agent.webhookSecretEnc || !agent.previousWebhookSecretEnc) return [];
      if (!agent.previousWebhookSecretExpiresAt || agent.previousWebhookSecretExpiresAt <= deps.clock.now()) return [];
      return [deps.secretBox.open(agent.previousWebhookSecretEnc)];
    },

    // When the previous secret stops signing; null when none is in its grace period.
    previousWebhookSecretExpiresAt(agent: Pick<AgentRow, 'previousWebhookSecretEnc' | 'previousWebhookSecretExpiresAt'>): Date | null {
      const endsAt = agent.previousWebhookSecretEnc ? agent.previousWebhookSecretExpiresAt : null;
      return endsAt && endsAt > deps.clock.now() ? endsAt : null;
    },
  };
}

export type AgentService = ReturnType<typeof agentService>;
