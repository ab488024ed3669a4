// Loopback HTTP servers a test file starts: each is closed, with its open connections, after each test.
import type { Server } from 'node:http';
import { afterEach } from 'vitest';

// Call at the top of a test file; pass each server started to what it returns.
export function closeAfterEach(): (server: Server) => Server {
  const open: Server[] = [];
  afterEach(async () => {
    await Promise.all(
      open.splice(0).map(
        (server) =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      ),
    );
  });
  return (server) => {
    open.push(server);
    return server;
  };
}
