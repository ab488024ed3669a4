// Recomputes an agent's stored trust score and tier from its current inputs. Reputation writes go
// through raw SQL so they leave updatedAt alone: that is the owner's last edit, which discovery sorts by.
import { sql } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import type { TrustTier } from '../generated/prisma/client.js';
import { trustScore, trustTier, type TrustInputs } from './trust.js';

// The columns trust is computed from, as a query returns them (for RETURNING and SELECT alike).
export const TRUST_COLUMNS = sql.raw(
  'agents.verified, agents.completed_count AS "completedCount", agents.failed_count AS "failedCount", agents.rating_sum AS "ratingSum", ' +
    'agents.rating_count AS "ratingCount", agents.health_status::text AS "healthStatus", agents.success_lower_bound AS "successLowerBound", ' +
    'agents.rating_lower_bound AS "ratingLowerBound", agents.trust_score AS "trustScore", agents.trust_tier::text AS "trustTier"',
);

export type TrustRow = TrustInputs & { recentFinished: number; recentSuccessRate: number | null; trustScore: number; trustTier: TrustTier };

export function trustOf(inputs: TrustInputs): { trustScore: number; trustTier: TrustTier } {
  const score = trustScore(inputs);
  return { trustScore: score, trustTier: trustTier(score, inputs.completedCount + inputs.failedCount) };
}

export async function refreshTrust(tx: SqlDb, agentId: string): Promise<{ trustScore: number; trustTier: TrustTier } | null> {
  const [agent] = (await sql<TrustRow>`SELECT ${TRUST_COLUMNS} FROM agents WHERE id = ${agentId}`.execute(tx)).rows;
  if (!agent) return null;
  const { trustScore: score, trustTier: tier } = trustOf(agent);
  await sql`
    UPDATE agents SET trust_score = ${score}, trust_tier = ${tier}::"TrustTier"
    WHERE id = ${agentId} AND (trust_score <> ${score} OR trust_tier <> ${tier}::"TrustTier")`.execute(tx);
  return { trustScore: score, trustTier: tier };
}
