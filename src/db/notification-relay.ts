// LISTEN/NOTIFY for the embedded database's socket connections. PGlite has one session for all of them,
// and a notification leaves it in the output of whichever connection's statement committed it, so a
// connection that ran LISTEN (graphile-worker's, waiting for new jobs) would never see it and the worker
// would only find new jobs by polling. The relay remembers which connections listen on which channels,
// picks NotificationResponse messages out of every connection's output and writes a copy to each
// other connection that listens on the channel, as a server would.
const QUERY = 'Q'.charCodeAt(0);
const NOTIFICATION = 'A'.charCodeAt(0);
const decoder = new TextDecoder();

// LISTEN "a"; UNLISTEN b; UNLISTEN * — as graphile-worker and psql send them (simple query protocol).
const LISTEN_COMMAND = /\b(UN)?LISTEN\s+(\*|"((?:[^"]|"")+)"|[A-Za-z_][\w$]*)/gi;

export class NotificationRelay {
  // Per connection: the channels it listens on, and how to write to it.
  private readonly listeners = new Map<number, { channels: Set<string>; write(data: Uint8Array): void }>();

  get listening(): boolean {
    return this.listeners.size > 0;
  }

  /** A message from connection `id`; `write` sends bytes to that connection. */
  incoming(id: number, message: Uint8Array, write: (data: Uint8Array) => void): void {
    if (message[0] !== QUERY || message.length < 12) return;
    const text = decoder.decode(message.subarray(5));
    if (!/LISTEN/i.test(text)) return;
    for (const match of text.matchAll(LISTEN_COMMAND)) {
      const channel = match[3]?.replaceAll('""', '"') ?? match[2]!;
      const entry = this.listeners.get(id) ?? { channels: new Set<string>(), write };
      entry.write = write;
      if (!match[1]) entry.channels.add(channel);
      else if (channel === '*') entry.channels.clear();
      else entry.channels.delete(channel);
      if (entry.channels.size > 0) this.listeners.set(id, entry);
      else this.listeners.delete(id);
    }
  }

  /** Everything connection `id`'s message produced: its notifications go to the other listeners. */
  outgoing(id: number, chunks: Uint8Array[]): void {
    if (this.listeners.size === 0 || chunks.length === 0) return;
    const data = chunks.length === 1 ? chunks[0]! : concat(chunks);
    for (let at = 0; at + 5 <= data.length; ) {
      const length = new DataView(data.buffer, data.byteOffset + at + 1, 4).getInt32(0);
      const end = at + 1 + length;
      if (length < 4 || end > data.length) return;
      if (data[at] === NOTIFICATION) this.relay(id, data.subarray(at, end));
      at = end;
    }
  }

  /** Connection `id` closed. */
  drop(id: number): void {
    this.listeners.delete(id);
  }

  // NotificationResponse: Int32 sender pid, then the channel and the payload as C strings.
  private relay(from: number, message: Uint8Array): void {
    const nul = message.indexOf(0, 9);
    if (nul === -1) return;
    const channel = decoder.decode(message.subarray(9, nul));
    for (const [id, { channels, write }] of this.listeners) {
      if (id !== from && channels.has(channel)) write(message.slice());
    }
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
