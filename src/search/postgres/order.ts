// ORDER BY clauses of the postgres engine, one per discovery sort. Every order ends with the id so that
// pages never overlap or skip an agent whose keys tie with another's.
import { Prisma } from '../../generated/prisma/client.js';
import type { DiscoverySort } from '../query.js';

// The average rating, null without ratings (sorted last).
export const AVG_RATING = Prisma.sql`(a.rating_sum::float8 / NULLIF(a.rating_count, 0))`;

// How much a query matched: the weighted full-text rank (name 1.0, capabilities and tags 0.4, description
// 0.2, long description 0.05, shorter documents preferred) of the query with its typo corrections, plus the
// same rank for the words exactly as typed (so that an exact match beats a correction, as it does in
// Typesense), plus how closely the query resembles the name.
export function textScore(q: { text: string; tsquery: string; exactTsquery: string | null }): Prisma.Sql {
  const weights = Prisma.sql`'{0.05,0.2,0.4,1.0}'`;
  const exact = q.exactTsquery
    ? Prisma.sql`ts_rank(${weights}, a.search_vector, to_tsquery('english'::regconfig, ${q.exactTsquery}), 1)`
    : Prisma.sql`0`;
  return Prisma.sql`(ts_rank(${weights}, a.search_vector, to_tsquery('english'::regconfig, ${q.tsquery}), 1)
    + ${exact} + 0.5 * word_similarity(${q.text.toLowerCase()}, lower(a.name)))`;
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

// The sort's own keys first, then the match score (when there is a query), then the id.
export function orderBy(sort: DiscoverySort, score: Prisma.Sql | null): Prisma.Sql {
  const keys = orderKeys(sort);
  const parts: Prisma.Sql[] = [];
  if (keys) parts.push(keys);
  if (score) parts.push(Prisma.sql`${score} DESC`);
  else if (!keys) parts.push(BY_QUALITY);
  parts.push(Prisma.sql`a.id`);
  return Prisma.join(parts, ', ');
}
