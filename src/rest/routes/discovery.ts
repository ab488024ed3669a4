// Public discovery over REST. The field sets of the spec ("Discovery search result item" and "Discovery
// detail", plus the track record `stats`) are the two fragments below.
import { graphql } from '../../generated/gql/index.js';
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
    deliveryMode
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
      successLowerBound
      ratingCount
      ratingAverage
      ratingLowerBound
    }
  }
`);

// Query parameter → GraphQL argument. Their limits are the discover field's (search/query.ts).
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

// The routes other transports run by name (rest/routes/operations.ts).
export const searchAgents = route({
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
  summary: 'Search the agents (public)',
  request: { query: PARAMETERS },
  answer: { body: result('discover') },
});

export const getAgent = route({
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
  summary: 'One agent by slug (current or previous) or id (public)',
  answer: { body: data('agent') },
});

export const discoveryRoutes = [
  searchAgents,
  getAgent,
];
