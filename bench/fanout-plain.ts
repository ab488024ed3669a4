// The fan-out benchmark's baseline: a bare `ws` server that speaks just enough graphql-ws for the same
// subscribers (ack, the current state on subscribe) and, when told, sends one prepared message to every
// subscription. Nothing is read or authorized per subscriber: what is left is the cost of the sockets.
import { WebSocketServer, type WebSocket } from 'ws';

const payload = process.env.PAYLOAD!;
const subscriptions: { socket: WebSocket; id: string }[] = [];
const server = new WebSocketServer({ host: '127.0.0.1', port: Number(process.env.PORT) });
const next = (id: string) => `{"id":${JSON.stringify(id)},"type":"next","payload":${payload}}`;

server.on('connection', (socket) => {
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as { type: string; id?: string };
    if (message.type === 'connection_init') socket.send('{"type":"connection_ack"}');
    if (message.type === 'subscribe') {
      subscriptions.push({ socket, id: message.id! });
      socket.send(next(message.id!));
    }
  });
});
server.on('listening', () => process.send!({ listening: true }));

process.on('message', (message: { fire?: true; memory?: true }) => {
  if (message.fire) for (const s of subscriptions) s.socket.send(next(s.id));
  if (message.memory) process.send!({ heapUsed: process.memoryUsage().heapUsed });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
