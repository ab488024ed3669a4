// A complete agent in one file, with nothing to install (Node 20 or newer): it checks each delivery's
// Standard Webhooks signature, answers at once, and calls back with the input's text reversed.
//   AGENT_SECRET=whsec_… AGENT_PORT=4420 node agent.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const secret = process.env.AGENT_SECRET ?? '';
const port = Number(process.env.AGENT_PORT ?? 4420);
if (!secret.startsWith('whsec_')) {
  console.error('AGENT_SECRET: set it to the webhook secret the service gave this agent (whsec_…)');
  process.exit(2);
}
// The secret's key is the base64 after the prefix.
const key = Buffer.from(secret.slice('whsec_'.length), 'base64');

// True when the request was signed with our secret less than 5 minutes ago. The signature covers
// `webhook-id.webhook-timestamp.body`, over the raw bytes received (never a re-serialised body).
function signedByService(headers, rawBody) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
  // During a secret rotation the header holds two signatures, space-separated; one must match.
  return signatures.split(' ').some((entry) => {
    const given = Buffer.from(entry.replace(/^v1,/, ''), 'base64');
    return entry.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

// The work itself.
function work(input) {
  if (typeof input?.text !== 'string') throw new Error('input.text must be a string');
  return { text: [...input.text].reverse().join('') };
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const rawBody = Buffer.concat(chunks);
    if (!signedByService(req.headers, rawBody)) return res.writeHead(401).end();
    const delivery = JSON.parse(rawBody.toString('utf8'));
    // Answer the delivery first (2xx moves the task to in_progress), then work and call back.
    res.writeHead(200).end();
    if (delivery.type === 'ping') return; // the owner's test delivery: nothing to do
    let answer;
    try {
      answer = { taskToken: delivery.taskToken, result: work(delivery.input) };
    } catch (error) {
      answer = { taskToken: delivery.taskToken, error: error.message };
    }
    const callback = await fetch(delivery.callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) });
    console.log(`task ${delivery.taskId}: callback answered ${callback.status}`);
  });
});
server.listen(port, '127.0.0.1', () => console.log(`agent listening on http://127.0.0.1:${port}/tasks`));
