// A key revoked by the CLI, a process of its own on the embedded database (through the server's
// socket), closes the key's open subscription on the running server at once: the revocation travels as
// a notification the socket's relay hands to the server's listener. (On PostgreSQL, LISTEN/NOTIFY does
// the same: subscription-credentials.test.ts.)
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { testDataDir, usingPostgres } from './support/database.js';
import { killAll, runCli, type ServerProcess, startServerProcess } from './support/processes.js';
import { createUserOf } from './support/users.js';
import { openSocket, openSse } from './support/subscriptions.js';
import { apiClient } from './support/http.js';

const servers: ServerProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await killAll(servers);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe.skipIf(usingPostgres())('the CLI on the embedded database', () => {
  it('closes the WebSocket and SSE subscriptions of the key it revokes', async () => {
    const dir = await testDataDir('revoke-cli-');
    dirs.push(dir);
    const env = { DATA_DIR: dir };
    const server = await startServerProcess(env);
    servers.push(server);
    const user = await createUserOf(env, 'watcher@example.com');
    const api = apiClient(server.url);
    const watcher = (await api.post('/v1/api-keys', { key: user.apiKey, body: { name: 'watcher', scopes: ['tasks:read'] } })).body.data as { id: string; apiKey: string };

    const socket = openSocket(server.url, watcher.apiKey, 'subscription { taskEvents { id status } }', {});
    const sse = await openSse(server.url, watcher.apiKey, 'subscription { taskEvents { id status } }', {});
    expect(sse.status).toBe(200);

    const revoke = await runCli(['apikey', 'revoke', '--key', watcher.id, '--json'], env);
    expect(revoke.code).toBe(0);

    expect(await socket.closed).toEqual({ code: 4401, reason: 'credentials revoked' });
    await sse.ended;
    expect(sse.events.at(-2)?.data).toMatchObject({ errors: [{ message: 'credentials revoked', extensions: { code: 'UNAUTHENTICATED' } }] });
    expect((await api.get('/v1/tasks', { key: watcher.apiKey })).status).toBe(401);
  }, 120_000);
});
