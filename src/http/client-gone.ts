// A client that hangs up mid-request (a body cut short, a download abandoned) is no failure of the
// service: anyone can cause it at will, so it is logged at debug, never as an error with a stack.
import type { IncomingMessage } from 'node:http';

// The error a route fails a request body with when its client went away (node's own word for it).
export function clientWentAway(): Error {
  return Object.assign(new Error('the client went away before the request was complete'), { code: 'ECONNRESET' });
}

// The error is the client's connection ending (a body cut short, a request aborted), and it has ended.
export function isClientGone(error: unknown, req: IncomingMessage): boolean {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  const abortLike = name === 'AbortError' || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ABORT_ERR';
  return abortLike && (req.destroyed || req.socket.destroyed);
}
