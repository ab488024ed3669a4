// Public discovery: search and one agent by slug or id. No authentication.
import { builder } from './builder.js';
import { PublicAgentRef } from './agents.js';
import { AgentStatusEnum } from './enums.js';
import { DEFAULT_PER_PAGE, DISCOVERY_SORTS, discoveryQuerySchema, MAX_PAGE, MAX_PER_PAGE } from '../search/query.js';
import type { DiscoveryPage } from '../services/discovery.js';
import { discoveryFilters, FILTERS_SHOWN, type DiscoveryFilters, type FilterCount } from '../services/discovery-filters.js';

const DiscoverySortEnum = builder.enumType('DiscoverySort', {
  description:
    'relevance: text match with a small quality prior (trust score, rating); without q, trust score, then rating, then tasks. ' +
    'rating: average rating, unrated last. tasks: task count. created, updated: newest first.',
  values: DISCOVERY_SORTS,
});

const DiscoveryPageRef = builder.objectRef<DiscoveryPage>('DiscoveryPage').implement({
  fields: (t) => ({
    data: t.field({ type: [PublicAgentRef], resolve: (page) => page.data }),
    total: t.exposeInt('total', { description: 'All agents that match, on every page' }),
    page: t.exposeInt('page'),
    perPage: t.exposeInt('perPage'),
    totalPages: t.exposeInt('totalPages'),
  }),
});

const FilterCountRef = builder.objectRef<FilterCount>('FilterCount').implement({
  fields: (t) => ({
    value: t.exposeString('value'),
    count: t.exposeInt('count', { description: 'Agents that have it' }),
  }),
});

const DiscoveryFiltersRef = builder.objectRef<DiscoveryFilters>('DiscoveryFilters').implement({
  description: `The ${FILTERS_SHOWN} most used values of each filter, with how many agents have each`,
  fields: (t) => ({
    capabilities: t.field({ type: [FilterCountRef], resolve: (f) => f.capabilities }),
    protocols: t.field({ type: [FilterCountRef], resolve: (f) => f.protocols }),
    categories: t.field({ type: [FilterCountRef], resolve: (f) => f.categories }),
  }),
});

builder.queryFields((t) => ({
  discoverFilters: t.field({
    type: DiscoveryFiltersRef,
    description: 'The most used capabilities, protocols and categories among agents of a status (default active), with counts. Public.',
    args: { status: t.arg({ type: AgentStatusEnum }) },
    resolve: (_root, args, ctx) => discoveryFilters(ctx.services.deps.sql, args.status ?? 'active'),
  }),
  discover: t.field({
    type: DiscoveryPageRef,
    description:
      'Full-text search over agent names, capabilities, tags and descriptions, tolerant of typos. Filters and q combine; ' +
      'each repeated filter value narrows further (the agent must have all of them). Public.',
    // Limits, defaults and case rules: discoveryQuerySchema, which checks the arguments together.
    args: t.validate({
      q: t.arg.string({ description: 'Free text; the last word also matches as a prefix' }),
      protocols: t.arg.stringList({ description: 'Only agents that speak all of these protocols (case-insensitive)' }),
      categories: t.arg.stringList({ description: 'Only agents in all of these categories (case-insensitive)' }),
      capabilities: t.arg.stringList({ description: 'Only agents with all of these capabilities (case-insensitive)' }),
      status: t.arg({ type: AgentStatusEnum, description: 'Default active: without it, only active agents are listed' }),
      page: t.arg.int({ description: `Default 1, at most ${MAX_PAGE}` }),
      perPage: t.arg.int({ description: `Default ${DEFAULT_PER_PAGE}, at most ${MAX_PER_PAGE}` }),
      sort: t.arg({ type: DiscoverySortEnum, description: 'Default relevance' }),
    }, discoveryQuerySchema),
    resolve: (_root, args, ctx) => ctx.services.discovery.search({ ...args, q: args.q ?? null }),
  }),
  agent: t.field({
    type: PublicAgentRef,
    description: 'One agent of any status, by slug or, failing that, by id. Public.',
    args: { slugOrId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.discovery.detail(args.slugOrId),
  }),
}));
