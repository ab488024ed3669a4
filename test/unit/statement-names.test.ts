import { describe, expect, it } from 'vitest';
import { statementNamer } from '../../src/db/statement-names.js';

describe('prepared statement names', () => {
  it('gives one SQL text one name, the same in every namer, and different texts different names', () => {
    const a = statementNamer();
    const b = statementNamer();
    const first = a({ sql: 'SELECT 1' });
    expect(first).toMatch(/^stmt_[\w-]{32}$/);
    expect(a({ sql: 'SELECT 1' })).toBe(first);
    // Another pool (another process) agrees on the name, so names never depend on the order of queries.
    expect(b({ sql: 'SELECT 1' })).toBe(first);
    expect(a({ sql: 'SELECT 2' })).not.toBe(first);
  });

  it('names at most the bound of texts and leaves the others unnamed, while named ones keep their names', () => {
    const name = statementNamer(3);
    const named = ['SELECT 1', 'SELECT 2', 'SELECT 3'].map((sql) => name({ sql }));
    expect(named.every((n) => typeof n === 'string')).toBe(true);
    expect(name({ sql: 'SELECT 4' })).toBeUndefined();
    expect(name({ sql: 'SELECT 2' })).toBe(named[1]);
  });
});
