// Public discovery over REST. The field sets of the spec ("Discovery search result item" and "Discovery
// detail", plus the track record `stats`) are the two fragments below.
import { z } from 'zod';
import { graphql } from '../../generated/gql/index.js';
import { invalid } from '../../errors.js';
import { discoveryQuerySchema, MAX_PAGE, MAX_PER_PAGE } from '../../search/query.js';
import { route } from '../route.js';
import { data, result } from '../shape.js';

graphql(`
  fragment DiscoveryItemFields on PublicAgent {
    id
    name
    slug
    description
    protocols
    categories
    capabilities
    tags
    endpoint
    docsUrl
    authType
    version
    status
  }
`);

graphql(`
  fragment DiscoveryDetailFields on PublicAgent {
    ...DiscoveryItemFields
    longDescription
    verified
    healthStatus
    inputSchema
    twitterUrl
    taskCount
    avgRating
    createdAt
    updatedAt
    stats {
      recentTasks
      successRate
      p50CompletionMs
      p95CompletionMs
    }
  }
`);

// Query parameter → GraphQL argument.
const PARAMETERS = {
  q: 'q',
  protocol: 'protocols',
  category: 'categories',
  capability: 'capabilities',
  status: 'status',
  page: 'page',
  per_page: 'perPage',
  sort: 'sort',
} as const;
const REPEATABLE = new Set(['protocol', 'category', 'capability']);
const restNameOf = Object.fromEntries(Object.entries(PARAMETERS).map(([rest, arg]) => [arg, rest])) as Record<string, string>;

const wholeNumber = (name: string, max: number) =>
  z.string().regex(/^\d{1,9}$/, `${name} must be a whole number from 1 to ${max}`).transform(Number);

// Reads the query string into discover() arguments; every problem is a 400 naming the parameter.
export function discoverArguments(query: URLSearchParams) {
  const raw: Record<string, unknown> = {};
  for (const [name, arg] of Object.entries(PARAMETERS)) {
    const values = query.getAll(name);
    if (values.length === 0) continue;
    if (REPEATABLE.has(name)) raw[arg] = values;
    else if (values.length > 1) throw invalid(name, `${name} may be given only once`);
    else raw[arg] = values[0];
  }
  for (const [name, max] of [['page', MAX_PAGE], ['per_page', MAX_PER_PAGE]] as const) {
    const arg = PARAMETERS[name];
    if (raw[arg] === undefined) continue;
    const parsed = wholeNumber(name, max).safeParse(raw[arg]);
    if (!parsed.success) throw invalid(name, parsed.error.issues[0]!.message);
    raw[arg] = parsed.data;
  }
  const parsed = discoveryQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = restNameOf[String(issue.path[0])] ?? 'query';
    throw invalid(name, `${name} ${issue.message}`);
  }
  return parsed.data;
}

export const discoveryRoutes = [
  route({
    method: 'GET',
    path: '/v1/discover',
    public: true,
    document: graphql(`
      query RestDiscover(
        $q: String
        $protocols: [String!]
        $categories: [String!]
        $capabilities: [String!]
        $status: AgentStatus
        $page: Int
        $perPage: Int
        $sort: DiscoverySort
      ) {
        discover(
          q: $q
          protocols: $protocols
          categories: $categories
          capabilities: $capabilities
          status: $status
          page: $page
          perPage: $perPage
          sort: $sort
        ) {
          data {
            ...DiscoveryItemFields
          }
          total
          page
          perPage
          totalPages
        }
      }
    `),
    variables: (req) => discoverArguments(req.query),
    respond: (data) => ({ body: data.discover }),
    summary: 'Search the agents (public)',
    request: { query: PARAMETERS },
    response: { body: result('discover') },
  }),
  route({
    method: 'GET',
    path: '/v1/discover/:slugOrId',
    public: true,
    document: graphql(`
      query RestDiscoverAgent($slugOrId: String!) {
        agent(slugOrId: $slugOrId) {
          ...DiscoveryDetailFields
        }
      }
    `),
    variables: (req) => ({ slugOrId: req.params.slugOrId! }),
    respond: (data) => ({ body: { data: data.agent } }),
    summary: 'One agent by slug (current or previous) or id (public)',
    response: { body: data('agent') },
  }),
];
