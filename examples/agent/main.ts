// npm run example:agent — runs the example agent against a local service.
//   API_KEY       an API key of the agent's owner (npm run --silent cli -- user create … --json)
//   SERVICE_URL   the service; without it, the same settings `npm start` reads: PUBLIC_BASE_URL, else
//                 http://localhost:PORT (PORT 4000 by default)
//   AGENT_PORT    where the agent listens (default 4400; its endpoint is http://127.0.0.1:AGENT_PORT/tasks)
import { startExampleAgent } from './agent.js';

const apiKey = process.env.API_KEY ?? process.env.KEY;
if (!apiKey) {
  console.error('API_KEY: set it to an API key of the agent owner (npm run --silent cli -- user create --email … --json)');
  process.exit(2);
}
const serviceUrl = (process.env.SERVICE_URL ?? process.env.PUBLIC_BASE_URL ?? `http://localhost:${process.env.PORT || 4000}`).replace(/\/$/, '');
const setting = process.env.SERVICE_URL ? 'SERVICE_URL' : process.env.PUBLIC_BASE_URL ? 'PUBLIC_BASE_URL' : 'PORT';

// Is anything answering there? A wrong address is the usual first mistake; say which setting to change.
const ready = await fetch(`${serviceUrl}/readyz`, { signal: AbortSignal.timeout(5000) }).then(
  (res) => res.ok,
  () => false,
);
if (!ready) {
  console.error(`${setting}: no service answers at ${serviceUrl}; start it (npm start) or set SERVICE_URL to where it runs`);
  process.exit(2);
}
const agent = await startExampleAgent({
  serviceUrl,
  apiKey,
  port: Number(process.env.AGENT_PORT ?? 4400),
  log: (line) => console.log(line),
}).catch((error: Error & { code?: string }) => {
  const why = error.code === 'EADDRINUSE' ? `AGENT_PORT: port ${process.env.AGENT_PORT ?? 4400} is in use; set AGENT_PORT to a free port` : `could not start the example agent: ${error.message}`;
  console.error(why);
  process.exit(error.code === 'EADDRINUSE' ? 2 : 1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void agent.close().then(() => process.exit(0)));
