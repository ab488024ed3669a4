// What /mcp adds to the SDK's wire handling: the Origin check of the transport spec, and error answers
// in plain words. The SDK puts "MCP error <code>: " into the message of the errors it raises (its client
// adds the same prefix again), answers malformed tools/call parameters with a dump of its zod issues,
// and answers anything unexpected with -32603 and the exception's own text.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logger.js';

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

// An error the SDK answers with its own code and this message, as it is.
export const invalidParams = (message: string) => Object.assign(new Error(message), { code: INVALID_PARAMS });

const originOf = (value: string): string | null => {
  try {
    return new URL(value).origin.toLowerCase();
  } catch {
    return null;
  }
};

// No Origin: not a browser (or a same-origin GET), nothing to rebind. A present one must be one of ours.
export function originAllowed(origin: string | string[] | undefined, allowed: string[]): boolean {
  if (origin === undefined) return true;
  if (typeof origin !== 'string') return false;
  const given = originOf(origin);
  return given !== null && allowed.some((a) => originOf(a) === given);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// What is wrong with a tools/call's parameters, in words naming the field; null when nothing is.
export function toolCallProblem(params: unknown): string | null {
  if (!isObject(params)) return 'params must be an object with the tool’s name and its arguments';
  if (typeof params.name !== 'string' || params.name === '') return 'params.name must be the name of a tool (see tools/list)';
  if (params.arguments !== undefined && !isObject(params.arguments)) return 'params.arguments must be an object of the tool’s arguments';
  if (params._meta !== undefined && !isObject(params._meta)) return 'params._meta must be an object';
  return null;
}

// The tools/call requests of a message (one or a batch) whose parameters are malformed: id → problem.
export function callProblems(message: unknown): Map<unknown, string> {
  const problems = new Map<unknown, string>();
  for (const m of Array.isArray(message) ? message : [message]) {
    if (!isObject(m) || m.method !== 'tools/call' || !('id' in m)) continue;
    const problem = toolCallProblem(m.params);
    if (problem) problems.set(m.id, problem);
  }
  return problems;
}

const PREFIX = /^(MCP error -?\d+: )+/;

// The field a zod dump in the SDK's message is about ("Invalid tools/list request: [{ ... "path": [...] }]").
function zodField(message: string): string | null {
  const start = message.indexOf('[');
  if (start < 0) return null;
  try {
    const issues = JSON.parse(message.slice(start)) as Array<{ path?: unknown[] }>;
    const path = issues[0]?.path;
    return Array.isArray(path) && path.length > 0 ? path.join('.') : 'params';
  } catch {
    return null;
  }
}

function plainError(error: { code: number; message: string; data?: unknown }, problem: string | undefined, logger: Logger) {
  if (problem) return { code: INVALID_PARAMS, message: problem };
  const message = error.message.replace(PREFIX, '');
  const field = /\n|"code":/.test(message) ? zodField(message) : null;
  // The SDK parses a request's parameters with zod and lets the failure out as an internal error.
  if (error.code === INTERNAL_ERROR && field !== null) return { code: INVALID_PARAMS, message: `invalid params: ${field} is missing or of the wrong type` };
  if (error.code === INTERNAL_ERROR) {
    logger.error({ mcpError: error.message }, 'MCP request failed');
    return { code: INTERNAL_ERROR, message: 'internal error' };
  }
  if (field !== null || /\n/.test(message)) return { code: error.code, message: `invalid params: ${field ?? 'params'} is missing or of the wrong type` };
  return { ...error, message };
}

// Rewrites the error answers the transport sends, whatever raised them.
export function cleanErrors(transport: { send(message: JSONRPCMessage, options?: never): Promise<void> }, problems: Map<unknown, string>, logger: Logger): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('error' in message && isObject(message.error)) {
      const error = message.error as { code: number; message: string; data?: unknown };
      message = { ...message, error: plainError(error, problems.get(message.id), logger) };
    }
    return send(message, options);
  };
}
