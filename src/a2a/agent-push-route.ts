// Push notifications from A2A agents, at the task's callback URL (the push configuration the delivery
// sent): POST /v1/tasks/:id/callback with the task token as `Authorization: Bearer` (or the SDK's
// X-A2A-Notification-Token) and a StreamResponse as JSON. The webhook callback at the same URL carries
// the token in its body and no Authorization header, so the two are told apart by their headers.
import type { IncomingMessage } from 'node:http';
import { AppError, invalid, unauthenticated } from '../errors.js';
import { readBody } from '../http/body.js';
import type { HttpRoute } from '../http/route.js';
import { sendJson } from '../http/respond.js';
import type { A2ADeliveries } from '../services/a2a-deliveries/index.js';
import { fromPush } from '../delivery/a2a/remote.js';

function tokenOf(req: IncomingMessage): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const header = req.headers['x-a2a-notification-token'];
  return bearer ?? (typeof header === 'string' && header ? header : null);
}

// A push carries the A2A media type, the SDK's token header, or a Bearer credential that is neither an
// API key (tmk_…) nor an access token (a JWT): the task token.
function isPush(req: IncomingMessage): boolean {
  if (req.headers['content-type']?.startsWith('application/a2a+json') || req.headers['x-a2a-notification-token']) return true;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  return bearer !== undefined && !bearer.startsWith('tmk_') && !bearer.includes('.');
}

// The SDK's codecs take any JSON and fail on a part or a status of the wrong kind: a malformed push.
function readPush(body: object): ReturnType<typeof fromPush> {
  try {
    return fromPush(body);
  } catch {
    throw invalid('body', 'the body is not an A2A StreamResponse (task, statusUpdate, artifactUpdate or message of the A2A schema)');
  }
}

// The REST route of the webhook callback, on the same method and path, states the operation in the
// OpenAPI document; this route claims the requests that are pushes.
export function a2aPushRoute(a2a: () => A2ADeliveries): HttpRoute {
  return {
    method: 'POST',
    path: '/v1/tasks/:id/callback',
    credential: 'own',
    admission: 'address',
    claims: isPush,
    openapi: { summary: 'An A2A push notification (documented with the callback of the REST table)' },
    async handle({ req, res, params }) {
      const taskId = params.id!;
      const token = tokenOf(req);
      if (!token) throw unauthenticated('send the task token as Authorization: Bearer <token>');
      let body: unknown;
      try {
        body = JSON.parse((await readBody(req)).toString('utf8'));
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw invalid('body', 'the body is not JSON');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body', 'the body must be a StreamResponse object');
      // Artifact updates and messages change no state: the task's status says when to read the result.
      const remote = readPush(body);
      if (!(await a2a().push(taskId, token, remote))) throw unauthenticated('the task token is not valid for this task');
      sendJson(res, 200, { data: { id: taskId, received: true } });
    },
  };
}
