// A requester's own record, for the owners of agents deciding whether to take his work (as MTurk workers
// filter requesters on approval rates). Over his tasks that reached an agent, leaving out tasks on his
// own agents (they count for nothing):
//
//   approvalRate      results he accepted without rejecting them / results he reviewed
//   rejectionRate     results he rejected / results he reviewed
//   disputeRate       rejections the agent's owner contested (an operator decided) / results he reviewed
//   cancellationRate  tasks he cancelled / tasks
//
// "Reviewed": completed, rejected (disputed, refunded) or paid after a dispute. Null without a denominator.
import type { SqlDb } from '../db/kysely.js';
import { requesterCounts } from '../stores/reputation-store.js';

export interface RequesterRecord {
  requesterId: string;
  tasks: number;
  reviewed: number;
  approvalRate: number | null;
  rejectionRate: number | null;
  disputeRate: number | null;
  cancellationRate: number | null;
}

const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

export async function requesterRecord(db: SqlDb, requesterId: string): Promise<RequesterRecord> {
  const r = await requesterCounts(db, requesterId);
  return {
    requesterId,
    tasks: r.tasks,
    reviewed: r.reviewed,
    approvalRate: rate(r.approved, r.reviewed),
    rejectionRate: rate(r.rejected, r.reviewed),
    disputeRate: rate(r.contested, r.reviewed),
    cancellationRate: rate(r.cancelled, r.tasks),
  };
}
