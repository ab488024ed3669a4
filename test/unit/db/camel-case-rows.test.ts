// The stores' rows read in camelCase whichever way they were built: renamed once when a statement's
// columns are snake_case, passed through when they already read in camelCase; a value (JSON, an array)
// keeps its own keys and identity either way.
import { describe, expect, it } from 'vitest';
import type { PluginTransformResultArgs, QueryResult, UnknownRow } from 'kysely';
import { CamelCaseRows } from '../../../src/db/camel-case-rows.js';

const plugin = new CamelCaseRows();
const answer = (rows: UnknownRow[]) => plugin.transformResult({ result: { rows } as QueryResult<UnknownRow> } as PluginTransformResultArgs);

describe('CamelCaseRows', () => {
  it('renames snake_case columns and leaves the values inside them alone', async () => {
    const input = { snake_key: 1 };
    const tags = ['a_b'];
    const { rows } = await answer([{ task_id: 't1', requester_input: input, tags }, { task_id: 't2', requester_input: null, tags: [] }]);
    expect(rows).toEqual([{ taskId: 't1', requesterInput: { snake_key: 1 }, tags: ['a_b'] }, { taskId: 't2', requesterInput: null, tags: [] }]);
    expect(rows[0]!.requesterInput).toBe(input);
    expect(rows[0]!.tags).toBe(tags);
  });

  it('answers rows already in camelCase as they are', async () => {
    const row = { taskId: 't1', id: 'x', input: { snake_key: 1 } };
    const result = { rows: [row] } as QueryResult<UnknownRow>;
    const out = await plugin.transformResult({ result } as PluginTransformResultArgs);
    expect(out).toBe(result);
    expect(out.rows[0]).toBe(row);
  });

  it('names a column as the query side expects it back', () => {
    expect(plugin.keyOf('made_at')).toBe('madeAt');
    expect(plugin.keyOf('id')).toBe('id');
  });

  it('answers a result without rows as it is', async () => {
    expect((await answer([])).rows).toEqual([]);
  });
});
