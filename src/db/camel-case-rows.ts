// Kysely's CamelCasePlugin with a cheaper answer: its own copies every row (and every array in it) into a
// new object, key by key, on every statement. Rows whose columns already read in camelCase (the named
// statements' rows are built that way, db/described-statements.ts) are returned as they are; others get
// one new object each, their values (JSON and arrays included) kept as they are, as the plugin keeps
// nested keys (`maintainNestedObjectKeys`).
import { CamelCasePlugin, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from 'kysely';

export class CamelCaseRows extends CamelCasePlugin {
  constructor() {
    super({ maintainNestedObjectKeys: true });
  }

  override async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const { rows } = args.result;
    if (!Array.isArray(rows) || rows.length === 0 || this.inCamelCase(rows[0]!)) return args.result;
    return { ...args.result, rows: rows.map((row) => this.renamed(row)) };
  }

  // The key a column of that name has in a row.
  keyOf(column: string): string {
    return this.camelCase(column);
  }

  // Whether every column of `row` is named as the plugin would name it. The rows of one statement share
  // their columns, so the first stands for all.
  private inCamelCase(row: UnknownRow): boolean {
    for (const key in row) if (this.camelCase(key) !== key) return false;
    return true;
  }

  private renamed(row: UnknownRow): UnknownRow {
    const out: UnknownRow = {};
    for (const key in row) out[this.camelCase(key)] = row[key];
    return out;
  }
}
