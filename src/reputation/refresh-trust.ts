// Recomputes an agent's stored trust score and tier from its current inputs. Reputation writes go
// through raw SQL so they leave updatedAt alone: that is the owner's last edit, which discovery sorts by.
import type { Db } from '../db/client.js';
import type { TrustTier } from '../generated/prisma/client.js';
import { trustScore, trustTier } from './trust.js';

export async function refreshTrust(tx: Db, agentId: string): Promise<{ trustScore: number; trustTier: TrustTier } | null> {
  const agent = await tx.agent.findUnique({
    where: { id: agentId },
    select: {
      verified: true,
      completedCount: true,
      failedCount: true,
      ratingSum: true,
      ratingCount: true,
      healthStatus: true,
      successLowerBound: true,
      ratingLowerBound: true,
    },
  });
  if (!agent) return null;
  const score = trustScore(agent);
  const tier = trustTier(score, agent.completedCount + agent.failedCount);
  await tx.$executeRaw`
    UPDATE agents SET trust_score = ${score}, trust_tier = ${tier}::"TrustTier"
    WHERE id = ${agentId} AND (trust_score <> ${score} OR trust_tier <> ${tier}::"TrustTier")`;
  return { trustScore: score, trustTier: tier };
}
