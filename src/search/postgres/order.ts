// How the postgres engine ranks a text search: the match keys, in order, which the search index's store
// turns into SQL (stores/search-ranking.ts). The discovery sort's own keys come first there, and the id
// last, so that pages never overlap or skip an agent whose keys tie with another's.
import type { MatchKey, TierTerm } from '../../stores/search-store.js';

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
export function matchTier(groups: GroupQueries[], allMatched: boolean, namePhrase: string | null = null): MatchKey | null {
  const terms: TierTerm[] = [];
  if (namePhrase) terms.push({ cases: [{ tsquery: namePhrase, score: 0.1 }], otherwise: 0 });
  for (const g of groups) {
    const levels: Array<{ tsquery: string; score: number }> = [];
    if (g.lead) levels.push({ tsquery: g.lead, score: 1.05 });
    if (g.exact !== null) levels.push({ tsquery: g.exact, score: 1.0 });
    if (g.near !== null && g.near !== g.exact) levels.push({ tsquery: g.near, score: 0.6 });
    if (g.any !== g.near) levels.push({ tsquery: g.any, score: 0.3 });
    const last = allMatched ? levels.pop()! : null;
    if (levels.length === 0) continue;
    terms.push({ cases: levels, otherwise: last ? last.score : 0 });
  }
  return terms.length ? { kind: 'tiers', terms } : null;
}

// How well an agent matches within a tier: the weighted full-text rank (name 1.0, capabilities and tags
// 0.4, description 0.2, long description 0.05) of every alternative, divided by a gentle document-length
// factor, so that a full listing is not beaten by a one-line one only for being short (the factor,
// 1 / (1 + 0.2 ln(1 + lexemes)), is agent_search.text_norm, stored with the row). Then the quality prior:
// at most +25 % for a perfect trust score and +10 % for a perfect average rating, so it decides between
// comparable matches and never lifts a poor match over a good one (agent_search.quality_prior:
// 1 + 0.25 trust + 0.1 (average rating - 1) / 4).
// `telling` (the soft AND): each group's tsquery adds its weight for an agent that has it.
export function relevance(any: string, telling?: Array<{ tsquery: string; weight: number }>): MatchKey {
  return telling ? { kind: 'relevance', any, telling } : { kind: 'relevance', any };
}
