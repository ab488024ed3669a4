// The agent fields an owner may set, as one zod schema: attached to AgentCreateInput and
// AgentUpdateInput (schema/agents.ts), it is the only statement of their limits, and the OpenAPI
// document reads them from it. Only the endpoint's network check is left to the service: it resolves
// the name and depends on configuration.
import { z } from 'zod';
import { checkEndpointUrl, checkUrlShape } from '../delivery/url-guard.js';
import { invalid } from '../errors.js';
import { InputSchemaError, inputSchemaValidator, MAX_INPUT_SCHEMA_BYTES } from './input-schema.js';
import { notNull, tagList } from './validation.js';

const text = (max: number) => z.string(notNull).trim().max(max, `must be at most ${max} characters`);
const optionalText = (max: number) => text(max).nullable();
const blankIsNull = (value: string | null) => (value === '' ? null : value);

// An address shown to users or fetched later: absolute http(s), nothing hidden in it. Blank clears it.
const optionalUrl = optionalText(2048)
  .transform(blankIsNull)
  .superRefine((value, ctx) => {
    const check = value ? checkUrlShape(value) : null;
    if (check && !check.ok) ctx.addIssue({ code: 'custom', message: `is not a usable URL: ${check.reason}` });
  });

// A JSON Schema every task input for the agent is checked against; one that cannot be compiled is refused now.
const inputSchema = z
  .string()
  .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_INPUT_SCHEMA_BYTES, `must be at most ${MAX_INPUT_SCHEMA_BYTES} bytes`)
  .nullable()
  .transform(blankIsNull)
  .superRefine((value, ctx) => {
    if (!value) return;
    try {
      inputSchemaValidator(value);
    } catch (error) {
      if (!(error instanceof InputSchemaError)) throw error;
      ctx.addIssue({ code: 'custom', message: `is not a usable JSON Schema: ${error.message}` });
    }
  });

// Every field is optional here: GraphQL requires name and endpoint on create (AgentCreateInput), and an
// update changes only the fields it sends.
export const agentInput = z
  .object({
    name: text(100).min(1, 'must not be empty'),
    description: text(500),
    longDescription: text(20_000),
    endpoint: text(2048),
    deliveryMode: z.enum(['push', 'pull'], notNull),
    protocols: tagList,
    categories: tagList,
    capabilities: tagList,
    tags: tagList,
    docsUrl: optionalUrl,
    manifestUrl: optionalUrl,
    authType: optionalText(64),
    version: optionalText(64),
    inputSchema,
    twitterUrl: optionalUrl,
    priceCents: z.number(notNull).int('must be a whole number of cents').min(0, 'must not be negative').max(100_000_000, 'is too large'),
    status: z.enum(['active', 'inactive', 'deprecated'], notNull),
    // The owner's throttle (null: no limit): tasks in flight at once, and delivery attempts per second.
    maxConcurrentTasks: z.number().int('must be a whole number').min(1, 'must be at least 1').max(10_000, 'must be at most 10000').nullable(),
    maxDeliveriesPerSecond: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000, 'must be at most 1000').nullable(),
  })
  .partial();

export type AgentInput = z.output<typeof agentInput>;

/** The endpoint against the SSRF policy: resolved now, for an early and readable refusal. */
export async function checkEndpoint(endpoint: string | undefined, allowPrivate: boolean): Promise<void> {
  // A pulling agent may clear its endpoint; the service checks it has a mode that needs none.
  if (endpoint === undefined || endpoint === '') return;
  const check = await checkEndpointUrl(endpoint, { allowPrivate });
  if (!check.ok) throw invalid('endpoint', `endpoint: ${check.reason}`);
}

/** An agent that takes tasks at its endpoint has one; only a pulling agent may go without. */
export function needsEndpoint(mode: 'push' | 'pull', endpoint: string): void {
  if (mode === 'push' && endpoint.trim() === '') throw invalid('endpoint', 'endpoint is required unless deliveryMode is "pull"');
}
