// ORDER BY clauses of the postgres engine, one per discovery sort. Every order ends with the id so that
// pages never overlap or skip an agent whose keys tie with another's.
import { Prisma } from '../../generated/prisma/client.js';
import type { DiscoverySort } from '../query.js';

// The average rating, null without ratings (sorted last).
export const AVG_RATING = Prisma.sql`(a.rating_sum::float8 / NULLIF(a.rating_count, 0))`;

// One query group's alternatives as tsquery text: as typed, with the one-typo forms, and all of them.
export interface GroupQueries {
  // Null when the group has no alternative of that tier.
  exact: string | null;
  near: string | null;
  any: string;
}

// How closely an agent matches the words, group by group: 1 for a group matched as typed, 0.6 through a
// one-typo form (or a completion), 0.3 through a two-typo one, summed. Ordered on before the text score,
// so an exact match always outranks a corrected one, whatever the fields. The @@ tests are what make
// this exact: ts_rank scores the lexemes a query names whether or not the document satisfies it.
export function matchTier(groups: GroupQueries[]): Prisma.Sql {
  const tier = (g: GroupQueries) => {
    const branches: Prisma.Sql[] = [];
    if (g.exact !== null) branches.push(Prisma.sql`WHEN a.search_vector @@ ${g.exact}::tsquery THEN 1.0`);
    if (g.near !== null && g.near !== g.exact) branches.push(Prisma.sql`WHEN a.search_vector @@ ${g.near}::tsquery THEN 0.6`);
    if (g.any !== g.near) branches.push(Prisma.sql`WHEN a.search_vector @@ ${g.any}::tsquery THEN 0.3`);
    return Prisma.sql`(CASE ${Prisma.join(branches, ' ')} ELSE 0 END)`;
  };
  return Prisma.sql`(${Prisma.join(groups.map(tier), ' + ')})`;
}

// How well an agent matches within a tier: the weighted full-text rank (name 1.0, capabilities and tags
// 0.4, description 0.2, long description 0.05) of every alternative, divided by a gentle document-length
// factor, so that a full listing is not beaten by a one-line one only for being short.
export function textScore(any: string): Prisma.Sql {
  return Prisma.sql`(ts_rank('{0.05,0.2,0.4,1.0}', a.search_vector, ${any}::tsquery, 0) / (1 + 0.2 * ln(1 + length(a.search_vector))))`;
}

// The quality prior: at most +25 % for a perfect trust score and +10 % for a perfect average rating, so
// it decides between comparable matches and never lifts a poor match over a good one.
const QUALITY_PRIOR = Prisma.sql`(1 + 0.25 * a.trust_score + 0.1 * COALESCE((${AVG_RATING} - 1) / 4, 0))`;

export function relevanceScore(text: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${text} * ${QUALITY_PRIOR})`;
}

// Without a query, relevance is the quality of the agent alone.
const BY_QUALITY = Prisma.sql`a.trust_score DESC, ${AVG_RATING} DESC NULLS LAST, a.task_count DESC`;

export function orderKeys(sort: DiscoverySort): Prisma.Sql | null {
  switch (sort) {
    case 'relevance':
      return null;
    case 'rating':
      return Prisma.sql`${AVG_RATING} DESC NULLS LAST, a.rating_count DESC`;
    case 'tasks':
      return Prisma.sql`a.task_count DESC`;
    case 'created':
      return Prisma.sql`a.created_at DESC`;
    case 'updated':
      return Prisma.sql`a.updated_at DESC`;
  }
}

// The sort's own keys first, then the match (when there is a query: each key descending), then the id.
export function orderBy(sort: DiscoverySort, match: Prisma.Sql[] | null): Prisma.Sql {
  const keys = orderKeys(sort);
  const parts: Prisma.Sql[] = [];
  if (keys) parts.push(keys);
  if (match) parts.push(...match.map((key) => Prisma.sql`${key} DESC`));
  else if (!keys) parts.push(BY_QUALITY);
  parts.push(Prisma.sql`a.id`);
  return Prisma.join(parts, ', ');
}
