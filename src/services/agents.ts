// The agent registry: owners create, change and remove their agents and manage webhook secrets.
import type { Deps } from '../deps.js';
import type { Db, Tx } from '../db/client.js';
import { Prisma, type Agent } from '../generated/prisma/client.js';
import { generateWebhookSecret } from '../delivery/signing.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueJob } from '../jobs/queue.js';
import { parseAgentInput, type AgentInput } from './agent-input.js';
import type { Viewer } from './accounts.js';
import { slugify } from './slug.js';
import { NON_TERMINAL } from './task-states.js';

async function agentChanged(tx: Db, agentId: string) {
  await enqueueJob(tx, 'agent.changed', { agentId }, { jobKey: `agent.changed:${agentId}` });
}

// The first free slug among base, base-2, base-3…; a racing writer is caught by the unique index.
// Another agent's previous slugs count as taken: they still lead to that agent.
async function freeSlug(tx: Db, name: string, exceptId?: string): Promise<string> {
  const base = slugify(name);
  const others = exceptId ? { not: exceptId } : undefined;
  const [current, previous] = await Promise.all([
    tx.agent.findMany({ where: { slug: { startsWith: base }, id: others }, select: { slug: true } }),
    tx.agentPreviousSlug.findMany({ where: { slug: { startsWith: base }, agentId: others }, select: { slug: true } }),
  ]);
  const taken = new Set([...current, ...previous].map((a) => a.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

function isSlugClash(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

export function agentService(deps: Deps) {
  const { prisma, config } = deps;

  async function ownedAgent(tx: Db, viewer: Viewer, id: string): Promise<Agent> {
    const agent = await tx.agent.findUnique({ where: { id } });
    if (!agent) throw notFound('agent');
    if (agent.ownerId !== viewer.id) throw forbidden('you do not own this agent');
    return agent;
  }

  async function withSlugRetry<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await prisma.$transaction(work);
      } catch (error) {
        if (!isSlugClash(error) || attempt >= 4) throw error;
      }
    }
  }

  return {
    ownedAgent: (viewer: Viewer, id: string) => ownedAgent(prisma, viewer, id),

    listOwned(viewer: Viewer) {
      return prisma.agent.findMany({ where: { ownerId: viewer.id }, orderBy: { createdAt: 'asc' } });
    },

    async create(viewer: Viewer, input: AgentInput): Promise<Agent> {
      const fields = await parseAgentInput(input, { partial: false, allowPrivateEndpoints: config.allowPrivateEndpoints });
      return withSlugRetry(async (tx) => {
        const agent = await tx.agent.create({
          data: {
            ...fields,
            id: newId('agt'),
            ownerId: viewer.id,
            name: fields.name!,
            endpoint: fields.endpoint!,
            slug: await freeSlug(tx, fields.name!),
          },
        });
        await agentChanged(tx, agent.id);
        return agent;
      });
    },

    async update(viewer: Viewer, id: string, input: AgentInput): Promise<Agent> {
      const fields = await parseAgentInput(input, { partial: true, allowPrivateEndpoints: config.allowPrivateEndpoints });
      return withSlugRetry(async (tx) => {
        const agent = await ownedAgent(tx, viewer, id);
        const slug = fields.name !== undefined && fields.name !== agent.name ? await freeSlug(tx, fields.name, id) : undefined;
        // updatedAt is refreshed even when nothing else changed: the owner did save.
        if (slug && slug !== agent.slug) {
          // The old slug keeps leading here; a slug the agent had before and takes back is current again.
          await tx.agentPreviousSlug.upsert({ where: { slug: agent.slug }, create: { slug: agent.slug, agentId: id }, update: {} });
          await tx.agentPreviousSlug.deleteMany({ where: { slug, agentId: id } });
        }
        const updated = await tx.agent.update({ where: { id }, data: { ...fields, ...(slug ? { slug } : {}), updatedAt: new Date() } });
        await agentChanged(tx, id);
        return updated;
      });
    },

    async remove(viewer: Viewer, id: string): Promise<void> {
      await prisma.$transaction(async (tx) => {
        await ownedAgent(tx, viewer, id);
        const inFlight = await tx.task.count({ where: { agentId: id, status: { in: [...NON_TERMINAL] } } });
        if (inFlight > 0) throw conflict(`the agent has ${inFlight} unfinished task(s); wait for them or cancel them first`);
        await tx.agent.delete({ where: { id } });
        await agentChanged(tx, id);
      });
    },

    // Generates or rotates the secret. The plain secret exists only in this return value.
    async rotateWebhookSecret(viewer: Viewer, id: string): Promise<string> {
      const secret = generateWebhookSecret();
      await prisma.$transaction(async (tx) => {
        await ownedAgent(tx, viewer, id);
        await tx.agent.update({ where: { id }, data: { webhookSecretEnc: deps.secretBox.seal(secret) } });
      });
      return secret;
    },

    async removeWebhookSecret(viewer: Viewer, id: string): Promise<Agent> {
      return prisma.$transaction(async (tx) => {
        await ownedAgent(tx, viewer, id);
        return tx.agent.update({ where: { id }, data: { webhookSecretEnc: null } });
      });
    },

    webhookSecretOf(agent: Pick<Agent, 'webhookSecretEnc'>): string | null {
      return agent.webhookSecretEnc ? deps.secretBox.open(agent.webhookSecretEnc) : null;
    },
  };
}

export type AgentService = ReturnType<typeof agentService>;
