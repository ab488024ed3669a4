// The ranking of the search index as SQL (stores/search-store.ts): the expressions an agent is ordered by,
// computed on the row aliased `a` (agent_search for a text search, agents for browsing). Which of them a
// search uses, and with which forms of the words, is the engine's choice (search/postgres/order.ts).
import { sql, type RawBuilder } from 'kysely';

// One case of a tier: agents whose document matches `tsquery` (tsquery text) score `score`.
export interface TierCase {
  tsquery: string;
  score: number;
}

// A sum of CASEs: each term scores its first matching case, or `otherwise`.
export interface TierTerm {
  cases: TierCase[];
  otherwise: number;
}

// The keys a text search orders its matches by, each descending:
//   tiers      how closely an agent matches, group by group (a sum of TierTerms)
//   coverage   how many of the tsqueries the agent matches
//   relevance  the weighted full-text rank of `any` times the row's length factor (text_norm), plus each
//              `telling` tsquery's weight when the agent matches it, times the row's quality prior
export type MatchKey =
  | { kind: 'tiers'; terms: TierTerm[] }
  | { kind: 'coverage'; tsqueries: string[] }
  | { kind: 'relevance'; any: string; telling?: Array<{ tsquery: string; weight: number }> };

// How the discovery sorts order agents (search/query.ts DiscoverySort).
export type SearchSort = 'relevance' | 'rating' | 'tasks' | 'created' | 'updated';

const matches = (tsquery: string) => sql<boolean>`a.search_vector @@ ${tsquery}::tsquery`;
const covers = (tsquery: string) => sql<number>`(a.search_vector @@ ${tsquery}::tsquery)::int`;

function tierTerm(term: TierTerm): RawBuilder<number> {
  const branches = term.cases.map((c) => sql`WHEN ${matches(c.tsquery)} THEN ${sql.lit(c.score)}`);
  return sql<number>`(CASE ${sql.join(branches, sql` `)} ELSE ${sql.lit(term.otherwise)} END)`;
}

// ts_rank weights {D, C, B, A}: long description, description, capabilities and tags, name.
const textScore = (any: string) => sql<number>`(ts_rank('{0.05,0.2,0.4,1.0}', a.search_vector, ${any}::tsquery, 0) * a.text_norm)`;

function relevance(any: string, telling: Array<{ tsquery: string; weight: number }> | undefined): RawBuilder<number> {
  const text = telling?.length
    ? sql`(${textScore(any)} + ${sql.join(
        telling.map((t) => sql`${t.weight}::float8 * ${covers(t.tsquery)}`),
        sql` + `,
      )})`
    : textScore(any);
  return sql<number>`(${text} * a.quality_prior)`;
}

export function matchExpression(key: MatchKey): RawBuilder<number> {
  switch (key.kind) {
    case 'tiers':
      return sql<number>`(${sql.join(key.terms.map(tierTerm), sql` + `)})`;
    case 'coverage':
      return sql<number>`(${sql.join(key.tsqueries.map(covers), sql` + `)})`;
    case 'relevance':
      return relevance(key.any, key.telling);
  }
}

// One key of an ORDER BY: the expression, computed once per matching agent, and its direction.
export interface SortKey {
  value: RawBuilder<unknown>;
  direction: RawBuilder<unknown>;
}

const DESC = sql`DESC`;
// The rating figure sorts go by: the lower bound of the Bayesian average (reputation/bounded.ts), so a few
// ratings cannot outrank many; null without counted ratings (sorted last).
const AVERAGE_RATING_DESC: SortKey = { value: sql`a.rating_lower_bound`, direction: sql`DESC NULLS LAST` };

// Without words, relevance is the quality of the agent alone.
const BY_QUALITY: SortKey[] = [{ value: sql`a.trust_score`, direction: DESC }, AVERAGE_RATING_DESC, { value: sql`a.task_count`, direction: DESC }];

function sortOwnKeys(sort: SearchSort): SortKey[] {
  switch (sort) {
    case 'relevance':
      return [];
    case 'rating':
      return [AVERAGE_RATING_DESC, { value: sql`a.rating_count`, direction: DESC }];
    case 'tasks':
      return [{ value: sql`a.task_count`, direction: DESC }];
    case 'created':
      return [{ value: sql`a.created_at`, direction: DESC }];
    case 'updated':
      return [{ value: sql`a.updated_at`, direction: DESC }];
  }
}

// The sort's own keys first, then the match keys (when there are words); the store adds the id last so
// that pages never overlap or skip an agent whose keys tie with another's.
export function sortKeys(sort: SearchSort, match: MatchKey[] | null): SortKey[] {
  const keys = sortOwnKeys(sort);
  if (match) return [...keys, ...match.map((key) => ({ value: matchExpression(key), direction: DESC }))];
  return keys.length ? keys : BY_QUALITY;
}
