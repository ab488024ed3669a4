// Translates a discovery query into Typesense search parameters. Pure, so that every parameter's
// translation is covered by unit tests without a server.
import type { SearchParams } from 'typesense/lib/Typesense/Types.js';
import { invalid } from '../../errors.js';
import type { DiscoveryQuery, DiscoverySort } from '../query.js';
import { DROP_TOKENS_THRESHOLD, MIN_LENGTH_ONE_TYPO, MIN_LENGTH_TWO_TYPOS, TYPO_TOKENS_THRESHOLD } from '../text/matching.js';
import type { AgentDocument } from './collection.js';

// Searched fields, most telling first: the name outweighs capabilities and tags, which outweigh descriptions.
export const QUERY_BY = ['name', 'capabilities', 'tags', 'description', 'long_description'] as const;
export const QUERY_BY_WEIGHTS = [8, 4, 4, 2, 1] as const;
// Up to two typos per word in every field but the long description (one there, to keep noise down).
export const NUM_TYPOS = [2, 2, 2, 2, 1] as const;
// The last word is a prefix in the short fields only; prefix matching over long text only adds noise.
export const PREFIX = [true, true, true, false, false] as const;

// Text relevance first, grouped into buckets of similar relevance, then the quality prior inside a bucket:
// the same "small prior" the postgres engine applies.
const RELEVANCE_BUCKETS = 10;

function filterValue(field: string, value: string): string {
  // Typesense has no escape for a backtick inside a backtick-quoted value.
  if (value.includes('`')) throw invalid(field, `${field} values must not contain a backtick`);
  return `\`${value}\``;
}

// Each value narrows further (the agent must have all of them), as in the postgres engine.
function allOf(field: keyof AgentDocument & string, param: string, values: string[]): string[] {
  return values.map((value) => `${field}:=[${filterValue(param, value)}]`);
}

export function filterBy(query: DiscoveryQuery): string {
  return [
    `status:=${query.status}`,
    ...allOf('protocols', 'protocol', query.protocols),
    ...allOf('categories', 'category', query.categories),
    ...allOf('capabilities', 'capability', query.capabilities),
  ].join(' && ');
}

export function sortBy(sort: DiscoverySort, hasQuery: boolean): string {
  const byText = hasQuery ? ['_text_match:desc'] : [];
  switch (sort) {
    case 'relevance':
      return hasQuery
        ? `_text_match(buckets: ${RELEVANCE_BUCKETS}):desc,trust_score:desc,avg_rating:desc`
        : 'trust_score:desc,avg_rating:desc,task_count:desc';
    case 'rating':
      return ['avg_rating:desc', 'rating_count:desc', ...byText].join(',');
    case 'tasks':
      return ['task_count:desc', ...byText].join(',');
    case 'created':
      return ['created_at:desc', ...byText].join(',');
    case 'updated':
      return ['updated_at:desc', ...byText].join(',');
  }
}

// synonymSet: the name of the synonym set holding the marketplace's synonyms (synonyms.ts).
export function typesenseSearchParams(query: DiscoveryQuery, synonymSet?: string): SearchParams<AgentDocument> {
  return {
    q: query.q ?? '*',
    query_by: QUERY_BY.join(','),
    query_by_weights: QUERY_BY_WEIGHTS.join(','),
    num_typos: NUM_TYPOS.join(','),
    prefix: PREFIX.join(','),
    // The last word may be unfinished (search as you type): a word that completes it counts as much as
    // the word itself, as the postgres engine's completions do (query-plan.ts), so "paint" on the way to
    // "painter" finds what "painter" finds.
    prioritize_exact_match: false,
    // The same typo allowance as the postgres engine: one typo from 3 letters, two from 7.
    min_len_1typo: MIN_LENGTH_ONE_TYPO,
    min_len_2typo: MIN_LENGTH_TWO_TYPOS,
    // Words are corrected only when the words as typed find nothing (a correctly spelled word is not
    // widened to its neighbours: "help" stays help, not helm or kelp), and two typos only when one
    // finds nothing.
    typo_tokens_threshold: TYPO_TOKENS_THRESHOLD,
    // Soft AND: when no agent has every word, drop words until something matches, trying both ends of
    // short queries (Typesense drops by position; the postgres engine drops the commonest words first).
    drop_tokens_threshold: DROP_TOKENS_THRESHOLD,
    drop_tokens_mode: 'both_sides:3',
    // "help desk" also matches helpdesk, and "helpdesk" help desk, when the words as typed find nothing.
    split_join_tokens: 'fallback',
    ...(synonymSet ? { synonym_sets: synonymSet } : {}),
    filter_by: filterBy(query),
    sort_by: sortBy(query.sort, query.q !== null),
    page: query.page,
    per_page: query.perPage,
    // Agents are read from the database; the index is only asked for ids.
    include_fields: 'id',
  };
}
