// Checks that the service's port can be bound before anything slow (the database, migrations) starts,
// so a busy port is reported at once instead of after a database was built.
import net from 'node:net';

export class PortUnavailableError extends Error {}

export function ensurePortFree(port: number, host: string): Promise<void> {
  // Port 0 asks the system for any free port: nothing to check.
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'is in use by another process' : error.code === 'EACCES' ? 'needs privileges this process lacks' : `cannot be bound (${error.code ?? error.message})`;
      reject(new PortUnavailableError(`PORT: port ${port} on ${host} ${why}; stop that process or set PORT to a free port`));
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
