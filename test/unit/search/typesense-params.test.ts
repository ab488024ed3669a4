// Every discovery parameter's translation into Typesense search parameters.
import { describe, expect, it } from 'vitest';
import { discoveryQuerySchema, type DiscoveryQueryInput } from '../../../src/search/query.js';
import { typesenseSearchParams } from '../../../src/search/typesense/params.js';
import { collectionSchema, agentDocument } from '../../../src/search/typesense/collection.js';
import { synonymSet } from '../../../src/search/typesense/synonyms.js';
import { SYNONYMS } from '../../../src/search/text/synonyms.js';
import { DROP_TOKENS_THRESHOLD, MIN_LENGTH_ONE_TYPO, MIN_LENGTH_TWO_TYPOS, typoAllowance } from '../../../src/search/text/matching.js';
import type { Agent } from '../../../src/generated/prisma/client.js';

const params = (input: DiscoveryQueryInput = {}) => typesenseSearchParams(discoveryQuerySchema.parse(input));

describe('typesenseSearchParams', () => {
  it('searches every document with "*" and only active agents when nothing is given', () => {
    expect(params()).toEqual({
      q: '*',
      query_by: 'name,capabilities,tags,description,long_description',
      query_by_weights: '8,4,4,2,1',
      num_typos: '2,2,2,2,1',
      prefix: 'true,true,true,false,false',
      prioritize_exact_match: false,
      min_len_1typo: 3,
      min_len_2typo: 7,
      typo_tokens_threshold: 1,
      drop_tokens_threshold: 1,
      drop_tokens_mode: 'both_sides:3',
      split_join_tokens: 'fallback',
      filter_by: 'status:=active',
      sort_by: 'trust_score:desc,avg_rating:desc,task_count:desc',
      page: 1,
      per_page: 20,
      include_fields: 'id',
    });
  });

  it('passes q through, trimmed', () => {
    expect(params({ q: '  imge generaton ' }).q).toBe('imge generaton');
    expect(params({ q: '   ' }).q).toBe('*');
  });

  it('weights the name above capabilities and tags above descriptions', () => {
    const p = params({ q: 'x' });
    const fields = String(p.query_by).split(',');
    const weights = String(p.query_by_weights).split(',').map(Number);
    const weight = (f: string) => weights[fields.indexOf(f)]!;
    expect(weight('name')).toBeGreaterThan(weight('capabilities'));
    expect(weight('capabilities')).toBe(weight('tags'));
    expect(weight('tags')).toBeGreaterThan(weight('description'));
    expect(weight('description')).toBeGreaterThan(weight('long_description'));
    expect(String(p.num_typos).split(',')).toHaveLength(fields.length);
    expect(String(p.prefix).split(',')).toHaveLength(fields.length);
  });

  it.each([
    [{ status: 'inactive' }, 'status:=inactive'],
    [{ status: 'deprecated' }, 'status:=deprecated'],
    [{ protocols: ['MCP'] }, 'status:=active && protocols:=[`mcp`]'],
    [{ categories: ['Language', 'NLP'] }, 'status:=active && categories:=[`language`] && categories:=[`nlp`]'],
    [{ capabilities: ['image-generation'] }, 'status:=active && capabilities:=[`image-generation`]'],
    [
      { protocols: ['rest'], categories: ['media'], capabilities: ['a, b'], status: 'inactive' },
      'status:=inactive && protocols:=[`rest`] && categories:=[`media`] && capabilities:=[`a, b`]',
    ],
  ] as Array<[DiscoveryQueryInput, string]>)('filters %j as %s', (input, filter) => {
    expect(params(input).filter_by).toBe(filter);
  });

  it('refuses a filter value Typesense cannot quote', () => {
    expect(() => params({ capabilities: ['a`b'] })).toThrow(/capability/);
  });

  it.each([
    ['relevance', true, '_text_match(buckets: 10):desc,trust_score:desc,avg_rating:desc'],
    ['relevance', false, 'trust_score:desc,avg_rating:desc,task_count:desc'],
    ['rating', true, 'avg_rating:desc,rating_count:desc,_text_match:desc'],
    ['rating', false, 'avg_rating:desc,rating_count:desc'],
    ['tasks', true, 'task_count:desc,_text_match:desc'],
    ['tasks', false, 'task_count:desc'],
    ['created', false, 'created_at:desc'],
    ['created', true, 'created_at:desc,_text_match:desc'],
    ['updated', false, 'updated_at:desc'],
    ['updated', true, 'updated_at:desc,_text_match:desc'],
  ] as const)('sorts %s (with q: %s) by %s', (sort, withQuery, sortBy) => {
    const p = params({ sort, q: withQuery ? 'x' : undefined });
    expect(p.sort_by).toBe(sortBy);
    expect(String(p.sort_by).split(',').length).toBeLessThanOrEqual(3);
  });

  it('pages with page and per_page', () => {
    expect(params({ page: 3, perPage: 50 })).toMatchObject({ page: 3, per_page: 50 });
  });

  it('makes the same matching choices as the postgres engine', () => {
    const p = params({ q: 'slq help desk' });
    // One typo from three letters ("slq"), two from seven, as typoAllowance.
    expect([p.min_len_1typo, p.min_len_2typo]).toEqual([MIN_LENGTH_ONE_TYPO, MIN_LENGTH_TWO_TYPOS]);
    expect([2, 3, 6, 7].map(typoAllowance)).toEqual([0, 1, 1, 2]);
    // Words spelled right are not corrected while they find something.
    expect(p.typo_tokens_threshold).toBe(1);
    // Soft AND: words are dropped when no agent has them all.
    expect(p.drop_tokens_threshold).toBe(DROP_TOKENS_THRESHOLD);
    // Adjacent words joined and compounds split.
    expect(p.split_join_tokens).toBe('fallback');
  });

  it('names the synonym set when given one', () => {
    expect(typesenseSearchParams(discoveryQuerySchema.parse({ q: 'cv' }), 'agents_synonyms').synonym_sets).toBe('agents_synonyms');
    expect(params({ q: 'cv' })).not.toHaveProperty('synonym_sets');
  });

  it('asks for ids only: agents are read from the database', () => {
    expect(params({ q: 'x' }).include_fields).toBe('id');
  });
});

describe('collection', () => {
  it('declares every field the parameters use, with facets on the filtered ones', () => {
    const fields = new Map(collectionSchema('agents_1').fields!.map((f) => [f.name, f]));
    const p = params({ q: 'x', protocols: ['a'], categories: ['b'], capabilities: ['c'] });
    for (const f of String(p.query_by).split(',')) expect(fields.has(f)).toBe(true);
    for (const f of ['status', 'protocols', 'categories', 'capabilities']) expect(fields.get(f)?.facet).toBe(true);
    for (const f of ['trust_score', 'avg_rating', 'rating_count', 'task_count', 'created_at', 'updated_at']) expect(fields.has(f)).toBe(true);
  });

  it('turns an agent into a document with the sort keys filled', () => {
    const agent = {
      id: 'agt_1', name: 'A', capabilities: ['x'], tags: [], description: 'd', longDescription: 'l', protocols: ['rest'], categories: [],
      status: 'active', trustScore: 0.5, ratingSum: 9, ratingCount: 2, ratingLowerBound: 3.9, taskCount: 4,
      createdAt: new Date(1000), updatedAt: new Date(2000),
    } as unknown as Agent;
    expect(agentDocument(agent)).toEqual({
      id: 'agt_1', name: 'A', capabilities: ['x'], tags: [], description: 'd', long_description: 'l', protocols: ['rest'], categories: [],
      // avg_rating is the bounded figure the rating sort uses (reputation/bounded.ts).
      status: 'active', trust_score: 0.5, avg_rating: 3.9, rating_count: 2, task_count: 4, created_at: 1000, updated_at: 2000,
    });
    expect(agentDocument({ ...agent, ratingCount: 0, ratingSum: 0, ratingLowerBound: null }).avg_rating).toBe(0);
  });
});

describe('synonym set', () => {
  it('holds each line of the synonym table as one multi-way synonym with a stable id', () => {
    const set = synonymSet();
    expect(set.items).toHaveLength(SYNONYMS.length);
    expect(set.items[0]).toEqual({ id: 'marketplace-1', synonyms: [...SYNONYMS[0]!] });
    expect(new Set(set.items.map((i) => i.id)).size).toBe(SYNONYMS.length);
  });
});
