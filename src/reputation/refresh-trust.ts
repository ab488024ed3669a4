// Recomputes an agent's stored trust score and tier from its current inputs (trust.ts); the statements are
// stores/reputation-store.ts's.
import type { SqlDb } from '../db/kysely.js';
import type { TrustTier } from '../generated/prisma/client.js';
import { storeTrust, trustFigures } from '../stores/reputation-store.js';
import { trustScore, trustTier, type TrustInputs } from './trust.js';

export function trustOf(inputs: TrustInputs): { trustScore: number; trustTier: TrustTier } {
  const score = trustScore(inputs);
  return { trustScore: score, trustTier: trustTier(score, inputs.completedCount + inputs.failedCount) };
}

export async function refreshTrust(tx: SqlDb, agentId: string): Promise<{ trustScore: number; trustTier: TrustTier } | null> {
  const figures = await trustFigures(tx, agentId);
  if (!figures) return null;
  const trust = trustOf(figures);
  await storeTrust(tx, agentId, trust);
  return trust;
}
