// Named statements described once per connection. `pg` asks the server to describe a statement's result
// (its columns and their types) on every execution and builds the row template and the column parsers
// from the answer each time: for a task's create that was about a ninth of what the request allocated
// (docs/benchmarks.md, "What a request allocates"). A named statement's result cannot change while the
// connection keeps it prepared (the server refuses to run it if its columns would), so the first
// execution's description is kept and later executions send only Bind and Execute. The kept description
// names the columns as the rows are to read (`keyOf`: camelCase, db/camel-case-rows.ts), so each row is
// built once, with its final keys.
import pg from 'pg';

// The parts of `pg`'s Query and Result this reads and sets: the row template and parsers (Result's
// addFields) and whether rows are kept (handleRowDescription).
interface ResultInternals {
  fields: FieldInternals[];
  _parsers?: unknown[];
  _prebuiltEmptyResultObject?: Record<string, null>;
}
interface FieldInternals {
  name: string;
}
interface QueryInternals {
  name?: string;
  callback?: (error: Error | null, result?: unknown) => void;
  _result: ResultInternals;
  _accumulateRows?: boolean;
  prepare(connection: ConnectionInternals): void;
  handleRowDescription(message: unknown): void;
  handleCommandComplete(message: unknown, connection: ConnectionInternals): void;
  handleError(error: Error, connection: ConnectionInternals): void;
  handleReadyForQuery(connection: ConnectionInternals): void;
  hasBeenParsed(connection: ConnectionInternals): boolean;
}
interface ConnectionInternals {
  describe(message: unknown): void;
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
}

// A statement's result as the first description gave it; `fields` empty for one that returns no rows.
interface Described {
  fields: FieldInternals[];
  parsers?: unknown[];
  template?: Record<string, null>;
}

const noDescribe = () => undefined;

const Query = pg.Query as unknown as new (config: pg.QueryConfig) => QueryInternals;

class DescribedOnce extends Query {
  // Described on this execution: the description is to be kept when it arrives.
  private describing = false;
  private described = false;
  // Inside prepare: an error handled now is a parameter pg could not serialize.
  private preparing = false;
  // pg closed the statement on the server after such an error (below).
  private closed = false;

  constructor(
    config: pg.QueryConfig,
    private readonly descriptions: Map<string, Described>,
    private readonly keyOf: (column: string) => string,
  ) {
    super(config);
  }

  override prepare(connection: ConnectionInternals): void {
    this.preparing = true;
    try {
      this.send(connection);
    } finally {
      this.preparing = false;
    }
  }

  private send(connection: ConnectionInternals): void {
    const known = this.descriptions.get(this.name!);
    if (!known || !this.hasBeenParsed(connection)) {
      this.describing = true;
      return super.prepare(connection);
    }
    if (known.fields.length) {
      this._result.fields = known.fields;
      this._result._parsers = known.parsers;
      this._result._prebuiltEmptyResultObject = known.template;
    }
    // pg keeps the rows of a query with a callback (handleRowDescription), which this always has.
    this._accumulateRows = true;
    // pg's own Bind and Execute, without its Describe.
    const describe = connection.describe;
    connection.describe = noDescribe;
    try {
      super.prepare(connection);
    } finally {
      connection.describe = describe;
    }
  }

  // A parameter pg cannot serialize (a circular object) fails inside prepare, and pg closes the statement on
  // the server but goes on counting it as parsed, so every later run on this connection would fail with
  // "prepared statement … does not exist". Once the server is done with this execution, the connection
  // forgets the statement and its description, and the next run parses it again.
  override handleError(error: Error, connection: ConnectionInternals): void {
    if (this.preparing) this.closed = true;
    super.handleError(error, connection);
  }

  override handleReadyForQuery(connection: ConnectionInternals): void {
    if (this.closed) {
      delete connection.parsedStatements[this.name!];
      delete connection.submittedNamedStatements[this.name!];
      this.descriptions.delete(this.name!);
    }
    super.handleReadyForQuery(connection);
  }

  override handleRowDescription(message: unknown): void {
    super.handleRowDescription(message);
    if (!this.describing) return;
    this.described = true;
    // Renamed before the rows arrive, so this execution's rows read as the later ones' will.
    const r = this._result;
    r.fields = r.fields.map((field) => ({ ...field, name: this.keyOf(field.name) }));
    const template: Record<string, null> = {};
    for (const field of r.fields) template[field.name] = null;
    r._prebuiltEmptyResultObject = template;
    this.descriptions.set(this.name!, { fields: r.fields, parsers: r._parsers, template });
  }

  override handleCommandComplete(message: unknown, connection: ConnectionInternals): void {
    // Described and no row description came: the statement returns no rows.
    if (this.describing && !this.described) this.descriptions.set(this.name!, { fields: [] });
    super.handleCommandComplete(message, connection);
  }
}

// Runs `name`d statements on `client` with their descriptions kept in `descriptions` (one map per
// connection: a statement is prepared on each connection by itself) and their columns named by `keyOf`.
// Answers as client.query does.
export function queryDescribedOnce(
  client: pg.PoolClient,
  descriptions: Map<string, Described>,
  config: { name: string; text: string; values: unknown[] },
  keyOf: (column: string) => string,
): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new DescribedOnce({ ...config, values: withDatesAsIso(config.values) }, descriptions, keyOf);
    query.callback = (error, result) => (error ? reject(error) : resolve(result as pg.QueryResult));
    void client.query(query as unknown as pg.Submittable);
  });
}

// A date parameter as ISO 8601 text, one string: `pg` writes it in the process's local time from a dozen
// pieces. The columns are timestamptz, so both name the same instant. An invalid date is left to `pg`,
// whose text the server rejects as it did before. The caller's array is not changed (a compiled query's
// parameters may be kept).
function withDatesAsIso(values: unknown[]): unknown[] {
  let out = values;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) continue;
    if (out === values) out = [...values];
    out[i] = value.toISOString();
  }
  return out;
}

export type Descriptions = Map<string, Described>;
