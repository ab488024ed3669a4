// A TCP proxy between the service and its PostgreSQL server that counts, from the wire, the statements
// the service sends (each simple Query 'Q' and each Execute 'E' of the extended protocol) and the
// transactions they make: an explicit BEGIN … COMMIT is one, a statement outside one is one of its own.
// Nothing in the service changes, and graphile-worker's statements count too: they cost the database
// the same. (pg_stat_database's counters are flushed about once a second, too late to tell steps apart.)
import net from 'node:net';

export interface Counts {
  statements: number;
  transactions: number;
}

export interface StatementCounter {
  port: number;
  counts(): Counts;
  // Starts recording the text of every statement (first 160 characters); stop() returns them.
  record(): { stop(): string[] };
  close(): Promise<void>;
}

// Reads one direction of a PostgreSQL client connection and calls `onMessage` with each message's type.
// The first message (startup, or an SSL/GSS request answered before it) has no type byte.
function messageReader(onMessage: (type: string, body: Buffer) => void) {
  let buffer: Buffer = Buffer.alloc(0);
  let untypedLeft = 1;
  return (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    for (;;) {
      if (untypedLeft > 0) {
        if (buffer.length < 4) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = length === 8 ? buffer.readInt32BE(4) : 0;
        buffer = buffer.subarray(length);
        // An SSLRequest (80877103) or GSSENCRequest (80877104) is followed by the real startup message.
        if (code !== 80877103 && code !== 80877104) untypedLeft--;
        continue;
      }
      if (buffer.length < 5) return;
      const length = buffer.readInt32BE(1);
      if (buffer.length < 1 + length) return;
      onMessage(String.fromCharCode(buffer[0]!), buffer.subarray(5, 1 + length));
      buffer = buffer.subarray(1 + length);
    }
  };
}

export async function startStatementCounter(target: { host: string; port: number }): Promise<StatementCounter> {
  const totals: Counts = { statements: 0, transactions: 0 };
  let recording: string[] | null = null;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    let inTransaction = false;
    // The extended protocol names its statement in Parse and binds it before Execute; the text of what
    // runs is needed to tell BEGIN and COMMIT from the rest.
    const parsed = new Map<string, string>();
    let bound = '';
    const cString = (body: Buffer, from: number) => {
      const end = body.indexOf(0, from);
      return { text: body.toString('utf8', from, end), next: end + 1 };
    };
    const read = messageReader((type, body) => {
      if (type === 'P') {
        const name = cString(body, 0);
        parsed.set(name.text, cString(body, name.next).text.slice(0, 160));
        return;
      }
      if (type === 'B') {
        const portal = cString(body, 0);
        bound = parsed.get(cString(body, portal.next).text) ?? '';
        return;
      }
      if (type !== 'Q' && type !== 'E') return;
      totals.statements++;
      const raw = (type === 'Q' ? body.toString('utf8', 0, Math.min(body.length, 160)) : bound).replace(/\s+/g, ' ').trim();
      recording?.push(raw);
      const text = raw.toUpperCase();
      if (/^(BEGIN|START TRANSACTION)/.test(text)) {
        inTransaction = true;
        totals.transactions++;
      } else if (/^(COMMIT|ROLLBACK|END)/.test(text)) {
        inTransaction = false;
      } else if (!inTransaction) {
        totals.transactions++;
      }
    });
    client.on('data', (chunk: Buffer) => read(chunk));
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    counts: () => ({ ...totals }),
    record() {
      const texts: string[] = [];
      recording = texts;
      return {
        stop: () => {
          recording = null;
          return texts;
        },
      };
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of open) socket.destroy();
      await closed;
    },
  };
}
