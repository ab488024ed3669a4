// An agent's finished tasks per day (UTC) over the last days, successes and failures: the tasks its
// record counts (stores/counted-tasks.ts), the same as completedCount and failedCount. Days without any
// are included, as zeros, so a chart has one bar per day.
import type { SqlDb } from '../db/kysely.js';
import { outcomesPerDay } from '../stores/reputation-store.js';

export interface DayOutcomes {
  day: string; // YYYY-MM-DD, UTC
  completed: number;
  failed: number;
}

const DAY_MS = 86_400_000;

export async function dailyOutcomes(db: SqlDb, agentId: string, now: Date, days: number): Promise<DayOutcomes[]> {
  const first = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS);
  const byDay = new Map((await outcomesPerDay(db, agentId, first)).map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const row = byDay.get(day);
    return { day, completed: row?.completed ?? 0, failed: row?.failed ?? 0 };
  });
}
