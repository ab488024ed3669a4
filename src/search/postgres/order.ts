// The sort keys of the postgres engine, one list per discovery sort. The engine ends every order with the
// id so that pages never overlap or skip an agent whose keys tie with another's.
import { Prisma } from '../../generated/prisma/client.js';
import type { DiscoverySort } from '../query.js';

// The rating figure sorts go by: the lower bound of the Bayesian average (reputation/bounded.ts), so a few
// ratings cannot outrank many; null without counted ratings (sorted last).
export const AVG_RATING = Prisma.sql`a.rating_lower_bound`;

// One query group's alternatives as tsquery text: as typed, with the one-typo forms, and all of them.
export interface GroupQueries {
  // The last word as typed in agents' names, ahead of the exact tier (query-plan.ts WordGroup.lead).
  lead?: string | null;
  // Null when the group has no alternative of that tier.
  exact: string | null;
  near: string | null;
  any: string;
}

// How closely an agent matches the words, group by group: 1 for a group matched as typed, 0.6 through a
// one-typo form (or a completion), 0.3 through a two-typo one, summed. Ordered on before the text score,
// so an exact match always outranks a corrected one, whatever the fields. The @@ tests are what make
// this exact: ts_rank scores the lexemes a query names whether or not the document satisfies it.
// When every agent ranked has every group (`allMatched`), the last tier of a group needs no test, and a
// group with one tier none at all: each @@ costs about a microsecond per agent, and broad queries rank
// thousands of them. Null when the tier is the same for every agent.
// `namePhrase` (query-plan.ts): the words in a name as typed add 0.1, which puts a name that goes on from
// what was typed ("orel pro" → Orel Prober) ahead of one that has the last word as typed elsewhere
// (Orel Listener Pro, +0.05 for the lead), but never above an agent matched in closer forms.
export function matchTier(groups: GroupQueries[], allMatched: boolean, namePhrase: string | null = null): Prisma.Sql | null {
  const tiers: Prisma.Sql[] = [];
  if (namePhrase) tiers.push(Prisma.sql`(CASE WHEN a.search_vector @@ ${namePhrase}::tsquery THEN 0.1 ELSE 0 END)`);
  for (const g of groups) {
    const levels: Array<[string, string]> = [];
    if (g.lead) levels.push([g.lead, '1.05']);
    if (g.exact !== null) levels.push([g.exact, '1.0']);
    if (g.near !== null && g.near !== g.exact) levels.push([g.near, '0.6']);
    if (g.any !== g.near) levels.push([g.any, '0.3']);
    const last = allMatched ? levels.pop()! : null;
    if (levels.length === 0) continue;
    const branches = levels.map(([tsquery, tier]) => Prisma.sql`WHEN a.search_vector @@ ${tsquery}::tsquery THEN ${Prisma.raw(tier)}`);
    tiers.push(Prisma.sql`(CASE ${Prisma.join(branches, ' ')} ELSE ${Prisma.raw(last ? last[1] : '0')} END)`);
  }
  return tiers.length ? Prisma.sql`(${Prisma.join(tiers, ' + ')})` : null;
}

// How well an agent matches within a tier: the weighted full-text rank (name 1.0, capabilities and tags
// 0.4, description 0.2, long description 0.05) of every alternative, divided by a gentle document-length
// factor, so that a full listing is not beaten by a one-line one only for being short.
// The factor, 1 / (1 + 0.2 ln(1 + lexemes)), is agent_search.text_norm, stored with the row.
export function textScore(any: string): Prisma.Sql {
  return Prisma.sql`(ts_rank('{0.05,0.2,0.4,1.0}', a.search_vector, ${any}::tsquery, 0) * a.text_norm)`;
}

// The quality prior: at most +25 % for a perfect trust score and +10 % for a perfect average rating, so
// it decides between comparable matches and never lifts a poor match over a good one. Stored with the
// row as agent_search.quality_prior: 1 + 0.25 trust + 0.1 (average rating - 1) / 4.
export function relevanceScore(text: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${text} * a.quality_prior)`;
}

// One key of an ORDER BY: the expression, computed once per matching agent, and its direction.
export interface SortKey {
  value: Prisma.Sql;
  direction: Prisma.Sql;
}

const DESC = Prisma.sql`DESC`;
const DESC_NULLS_LAST = Prisma.sql`DESC NULLS LAST`;
const AVERAGE_RATING_DESC: SortKey = { value: AVG_RATING, direction: DESC_NULLS_LAST };

// Without a query, relevance is the quality of the agent alone.
const BY_QUALITY: SortKey[] = [{ value: Prisma.sql`a.trust_score`, direction: DESC }, AVERAGE_RATING_DESC, { value: Prisma.sql`a.task_count`, direction: DESC }];

function sortOwnKeys(sort: DiscoverySort): SortKey[] {
  switch (sort) {
    case 'relevance':
      return [];
    case 'rating':
      return [AVERAGE_RATING_DESC, { value: Prisma.sql`a.rating_count`, direction: DESC }];
    case 'tasks':
      return [{ value: Prisma.sql`a.task_count`, direction: DESC }];
    case 'created':
      return [{ value: Prisma.sql`a.created_at`, direction: DESC }];
    case 'updated':
      return [{ value: Prisma.sql`a.updated_at`, direction: DESC }];
  }
}

// The sort's own keys first, then the match (when there is a query: each key descending); the engine
// adds the id last.
export function sortKeys(sort: DiscoverySort, match: Prisma.Sql[] | null): SortKey[] {
  const keys = sortOwnKeys(sort);
  if (match) return [...keys, ...match.map((value) => ({ value, direction: DESC }))];
  return keys.length ? keys : BY_QUALITY;
}
