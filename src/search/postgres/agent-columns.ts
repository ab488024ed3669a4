// The agents columns as Prisma's Agent fields, so that the search query itself can return the page's
// agents (one round trip instead of ids, then findMany). The list is the model's own
// (Prisma.AgentScalarFieldEnum, so a field added to the model is read at once), each field under its
// column: the schema maps every field to its snake_case name, the convention Kysely's CamelCasePlugin
// relies on as well (test/search-agent-columns.test.ts checks each against the table).
import { Prisma, type Agent } from '../../generated/prisma/client.js';

// Fields search never shows: an A2A card is up to 256 KiB and PublicAgent never shows it. Read as null.
const UNREAD: ReadonlySet<keyof Agent> = new Set(['a2aCard']);

export const AGENT_FIELDS = Object.values(Prisma.AgentScalarFieldEnum) as Array<keyof Agent>;

export const columnOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

// `a.owner_id AS "ownerId", …` for a select list over agents aliased `a`. Constant text, no input.
export const AGENT_SELECT = Prisma.raw(AGENT_FIELDS.map((field) => `${UNREAD.has(field) ? 'NULL' : `a.${columnOf(field)}`} AS "${field}"`).join(', '));

// The Agent in a result row that also carries other columns.
export function agentOf(row: Record<string, unknown>): Agent {
  const agent = {} as Record<string, unknown>;
  for (const field of AGENT_FIELDS) agent[field] = row[field];
  return agent as unknown as Agent;
}
