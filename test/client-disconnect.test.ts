// A client that goes away mid-request (a browser navigating away, a body cut short) is not an error of the
// service: the log says so at debug level, and nothing is logged as an error.
import net from 'node:net';
import { expect, it } from 'vitest';
import { logLines, testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';
import { until } from './support/wait.js';

type Line = { level: number; msg: string; path?: string };
const { lines, stream: capture } = logLines<Line>();

let server: TestServer;
const test = testWith({ serverEnv: { LOG_LEVEL: 'debug' }, serverLog: capture });

test.beforeAll(async ({ server: s }) => {
  server = s;
});

it('a request whose client disconnects half-way through its body is logged at debug, not as an error', async () => {
  const { port } = new URL(server.url);
  const { apiKey } = await server.createUser();
  for (const path of ['/graphql', '/v1/tasks']) {
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":`);
    socket.destroy();
    await until(`the service noticed the client left ${path}`, () => lines.some((l) => l.msg === 'client went away' && l.path === path));
  }
  expect(lines.filter((l) => l.level >= 40)).toEqual([]);
});
