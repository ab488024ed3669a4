// The attempt verdict's "taken" (delivery/attempt-verdict.ts TAKEN_STATUSES) as a condition on an attempt's
// status code. The verdict sits in a layer above the stores, so its caller hands the range in; the two
// forms are checked to agree for every status (test/rules-agree.test.ts).
import { sql, type RawBuilder } from 'kysely';

export interface StatusRange {
  min: number;
  max: number;
}

// `statusCode`: the column, as a reference ('at.status_code'). NULL (no answer) is not taken.
export function takenStatusSql(statusCode: string, taken: StatusRange): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(statusCode)} BETWEEN ${sql.lit(taken.min)} AND ${sql.lit(taken.max)})`;
}
