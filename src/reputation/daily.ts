// An agent's finished tasks per day (UTC) over the last days: completed, and failed or expired after it
// had them (the same outcomes as the track record). Days without any are included, as zeros, so a chart
// has one bar per day.
import type { Db } from '../db/client.js';

export interface DayOutcomes {
  day: string; // YYYY-MM-DD, UTC
  completed: number;
  failed: number;
}

const DAY_MS = 86_400_000;

export async function dailyOutcomes(db: Db, agentId: string, now: Date, days: number): Promise<DayOutcomes[]> {
  const first = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS);
  const rows = await db.$queryRaw<{ day: string; completed: bigint | number; failed: bigint | number }[]>`
    SELECT to_char(finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
           count(*) FILTER (WHERE status = 'completed') AS completed,
           count(*) FILTER (WHERE status IN ('failed', 'expired')) AS failed
      FROM tasks
     WHERE agent_id = ${agentId} AND finished_at >= ${first}
     GROUP BY 1`;
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const row = byDay.get(day);
    return { day, completed: Number(row?.completed ?? 0), failed: Number(row?.failed ?? 0) };
  });
}
