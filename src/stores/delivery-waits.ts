// The lifecycle's DELIVERY_WAITS_FOR as a condition on a delivery joined to its task: the task is in the
// state the delivery waits for. Derived from the table, so SQL and TypeScript cannot disagree.
import { sql, type RawBuilder } from 'kysely';
import { DEFAULT_DELIVERY_WAIT, DELIVERY_WAITS_FOR } from '../lifecycle/task-lifecycle.js';

// `type` and `status`: the columns, as references ('deliveries.type', 't.status').
export function taskWaitsForDelivery(type: string, status: string): RawBuilder<boolean> {
  const cases = Object.entries(DELIVERY_WAITS_FOR).map(([t, s]) => sql`WHEN ${sql.lit(t)} THEN ${sql.ref(status)} = ${sql.lit(s)}`);
  return sql<boolean>`(CASE ${sql.ref(type)} ${sql.join(cases, sql` `)} ELSE ${sql.ref(status)} = ${sql.lit(DEFAULT_DELIVERY_WAIT)} END)`;
}
