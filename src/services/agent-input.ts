// Validation of the agent fields an owner may set. Each failure names the field it is about.
import { z } from 'zod';
import { checkEndpointUrl, checkUrlShape } from '../delivery/url-guard.js';
import { invalid } from '../errors.js';
import { InputSchemaError, inputSchemaValidator, MAX_INPUT_SCHEMA_BYTES } from './input-schema.js';
import { parseOrInvalid, tagList } from './validation.js';

const optionalText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).nullable();

export const agentFields = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  description: z.string().trim().max(500, 'must be at most 500 characters'),
  longDescription: z.string().trim().max(20_000, 'must be at most 20000 characters'),
  endpoint: z.string().trim().max(2048, 'must be at most 2048 characters'),
  protocols: tagList,
  categories: tagList,
  capabilities: tagList,
  tags: tagList,
  docsUrl: optionalText(2048),
  manifestUrl: optionalText(2048),
  authType: optionalText(64),
  version: optionalText(64),
  inputSchema: z
    .string()
    .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_INPUT_SCHEMA_BYTES, `must be at most ${MAX_INPUT_SCHEMA_BYTES} bytes`)
    .nullable(),
  twitterUrl: optionalText(2048),
  priceCents: z.number().int('must be a whole number of cents').min(0, 'must not be negative').max(100_000_000, 'is too large'),
  status: z.enum(['active', 'inactive', 'deprecated']),
});

export type AgentFields = z.infer<typeof agentFields>;
export type AgentInput = Partial<Record<keyof AgentFields, unknown>>;

function checkInputSchema(text: string): void {
  try {
    inputSchemaValidator(text);
  } catch (error) {
    if (error instanceof InputSchemaError) throw invalid('inputSchema', `inputSchema is not a usable JSON Schema: ${error.message}`);
    throw error;
  }
}

/**
 * Checks the given fields (all of them on create, only those present on update) and returns them
 * normalised. Endpoint addresses are checked against the SSRF policy.
 */
export async function parseAgentInput(
  input: AgentInput,
  opts: { partial: boolean; allowPrivateEndpoints: boolean },
): Promise<Partial<AgentFields>> {
  const present = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  if (!opts.partial) {
    for (const field of ['name', 'endpoint'] as const) {
      if (present[field] === undefined || present[field] === null) throw invalid(field, `${field} is required`);
    }
  }
  for (const field of ['name', 'endpoint', 'status', 'priceCents'] as const) {
    if (present[field] === null) throw invalid(field, `${field} cannot be null`);
  }
  const data = parseOrInvalid(agentFields.partial(), present);
  for (const field of ['docsUrl', 'manifestUrl', 'twitterUrl'] as const) {
    const value = data[field];
    if (value === '') data[field] = null;
    else if (value) {
      const check = checkUrlShape(value);
      if (!check.ok) throw invalid(field, `${field}: ${check.reason}`);
    }
  }
  if (data.endpoint !== undefined) {
    const check = await checkEndpointUrl(data.endpoint, { allowPrivate: opts.allowPrivateEndpoints });
    if (!check.ok) throw invalid('endpoint', `endpoint: ${check.reason}`);
  }
  if (data.inputSchema === '') data.inputSchema = null;
  if (data.inputSchema) checkInputSchema(data.inputSchema);
  return data;
}
