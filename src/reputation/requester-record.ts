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
import type { Db } from '../db/client.js';

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

export async function requesterRecord(db: Db, requesterId: string): Promise<RequesterRecord> {
  const [row] = await db.$queryRaw<Array<{ tasks: number; reviewed: number; approved: number; rejected: number; contested: number; cancelled: number }>>`
    WITH mine AS (
      SELECT t.status,
        EXISTS (SELECT 1 FROM task_history h WHERE h.task_id = t.id AND h.action = 'reject') AS rejected,
        EXISTS (SELECT 1 FROM task_history h WHERE h.task_id = t.id AND h.action = 'contest') AS contested
      FROM tasks t JOIN agents a ON a.id = t.agent_id
      WHERE t.requester_id = ${requesterId} AND a.owner_id <> ${requesterId}
    )
    SELECT count(*)::int AS tasks,
      count(*) FILTER (WHERE status = 'completed' OR rejected)::int AS reviewed,
      count(*) FILTER (WHERE status = 'completed' AND NOT rejected)::int AS approved,
      count(*) FILTER (WHERE rejected)::int AS rejected,
      count(*) FILTER (WHERE contested)::int AS contested,
      count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled
    FROM mine`;
  const r = row ?? { tasks: 0, reviewed: 0, approved: 0, rejected: 0, contested: 0, cancelled: 0 };
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
