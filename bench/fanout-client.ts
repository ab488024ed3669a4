// A share of the fan-out benchmark's subscribers, in a process of its own (one process cannot read
// 10 000 sockets fast enough to time them). Each subscriber is one WebSocket speaking graphql-ws with
// one subscription; the first `next` is the current state, every later one is timed on arrival with
// the machine's clock (performance.timeOrigin + now is comparable across processes).
//
// The parent sends { open: { url, count, authorization, query, variables } } and gets { opened } or
// { failed }; then { collect } returns { arrivals } (every arrival time since the last collect).
import WebSocket from 'ws';

interface Open {
  url: string;
  count: number;
  authorization: string;
  query: string;
  variables: Record<string, unknown>;
}

const sockets: WebSocket[] = [];
let arrivals: number[] = [];
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send!(message);

function subscriber(opts: Open): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(opts.url, 'graphql-transport-ws');
    let ready = false;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: opts.authorization } })));
    socket.on('message', (data: Buffer) => {
      // Timed before anything else: parsing is the subscriber's own cost, not the server's.
      const at = now();
      if (ready) return void arrivals.push(at);
      const message = JSON.parse(data.toString()) as { type: string; payload?: unknown };
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: opts.query, variables: opts.variables } }));
      } else if (message.type === 'next') {
        ready = true;
        resolve(socket);
      } else {
        reject(new Error(`unexpected ${data.toString().slice(0, 300)}`));
      }
    });
    socket.on('error', reject);
    socket.on('close', (code, reason) => {
      if (!ready) reject(new Error(`closed ${code} ${reason.toString()}`));
    });
  });
}

process.on('message', async (message: { open?: Open; collect?: true; close?: true }) => {
  if (message.open) {
    try {
      // A few at a time: the server admits subscriptions at its own pace.
      const open = message.open;
      for (let i = 0; i < open.count; i += 100) {
        const batch = Math.min(100, open.count - i);
        sockets.push(...(await Promise.all(Array.from({ length: batch }, () => subscriber(open)))));
      }
      send({ opened: sockets.length });
    } catch (error) {
      send({ failed: String(error) });
    }
  } else if (message.collect) {
    send({ arrivals });
    arrivals = [];
  } else if (message.close) {
    for (const socket of sockets) socket.terminate();
    process.disconnect();
  }
});
