// npm run example:agent — runs the example agent against a local service.
//   API_KEY       an API key of the agent's owner (npm run --silent cli -- user create … --json)
//   SERVICE_URL   the service (default http://localhost:4000)
//   AGENT_PORT    where the agent listens (default 4400; its endpoint is http://127.0.0.1:AGENT_PORT/tasks)
import { startExampleAgent } from './agent.js';

const apiKey = process.env.API_KEY ?? process.env.KEY;
if (!apiKey) {
  console.error('set API_KEY to an API key of the agent owner (npm run --silent cli -- user create --email … --json)');
  process.exit(2);
}
const agent = await startExampleAgent({
  serviceUrl: (process.env.SERVICE_URL ?? 'http://localhost:4000').replace(/\/$/, ''),
  apiKey,
  port: Number(process.env.AGENT_PORT ?? 4400),
  log: (line) => console.log(line),
}).catch((error: Error) => {
  console.error(`could not start the example agent: ${error.message}`);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void agent.close().then(() => process.exit(0)));
