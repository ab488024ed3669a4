// An agent's finished tasks per day (UTC) over the last days, successes and failures: the tasks its
// record counts (counted-tasks.ts), the same as completedCount and failedCount. Days without any are
// included, as zeros, so a chart has one bar per day.
import { sql } from 'kysely';
import type { SqlDb } from '../db/kysely.js';
import { countedTaskSql, FAILURE_SQL, SUCCESS_SQL } from './counted-tasks.js';

export interface DayOutcomes {
  day: string; // YYYY-MM-DD, UTC
  completed: number;
  failed: number;
}

const DAY_MS = 86_400_000;

export async function dailyOutcomes(db: SqlDb, agentId: string, now: Date, days: number): Promise<DayOutcomes[]> {
  const first = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS);
  const { rows } = await sql<{ day: string; completed: number; failed: number }>`
    SELECT to_char(t.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
           count(*) FILTER (WHERE ${SUCCESS_SQL})::int AS completed,
           count(*) FILTER (WHERE ${FAILURE_SQL})::int AS failed
      FROM tasks t
     WHERE ${countedTaskSql(agentId)} AND t.finished_at >= ${first}
     GROUP BY 1`.execute(db);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const row = byDay.get(day);
    return { day, completed: row?.completed ?? 0, failed: row?.failed ?? 0 };
  });
}
