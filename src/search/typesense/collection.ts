// The Typesense collection of agents: which fields are searched, filtered (facets) and sorted, and how an
// agent row becomes a document. Only what search needs is indexed; results are read from the database.
import type { CollectionCreateSchema } from 'typesense/lib/Typesense/Collections.js';
import type { Agent } from '../../generated/prisma/client.js';

export interface AgentDocument {
  [field: string]: unknown;
  id: string;
  name: string;
  capabilities: string[];
  tags: string[];
  description: string;
  long_description: string;
  protocols: string[];
  categories: string[];
  status: string;
  trust_score: number;
  // 0 without ratings, below every real average (1 to 5), so unrated agents sort last by rating.
  avg_rating: number;
  rating_count: number;
  task_count: number;
  created_at: number;
  updated_at: number;
}

export function collectionSchema(name: string): CollectionCreateSchema {
  return {
    name,
    fields: [
      { name: 'name', type: 'string' },
      { name: 'capabilities', type: 'string[]', facet: true },
      { name: 'tags', type: 'string[]', facet: true },
      { name: 'description', type: 'string' },
      { name: 'long_description', type: 'string' },
      { name: 'protocols', type: 'string[]', facet: true },
      { name: 'categories', type: 'string[]', facet: true },
      { name: 'status', type: 'string', facet: true },
      { name: 'trust_score', type: 'float' },
      { name: 'avg_rating', type: 'float' },
      { name: 'rating_count', type: 'int32' },
      { name: 'task_count', type: 'int32' },
      { name: 'created_at', type: 'int64' },
      { name: 'updated_at', type: 'int64' },
    ],
    default_sorting_field: 'trust_score',
    // Hyphenated capabilities ("image-generation") are searched as their words.
    token_separators: ['-', '_', '/'],
  };
}

export function agentDocument(agent: Agent): AgentDocument {
  return {
    id: agent.id,
    name: agent.name,
    capabilities: agent.capabilities,
    tags: agent.tags,
    description: agent.description,
    long_description: agent.longDescription,
    protocols: agent.protocols,
    categories: agent.categories,
    status: agent.status,
    trust_score: agent.trustScore,
    // The bounded figure (reputation/bounded.ts): sorts by rating must not be won by a few ratings.
    avg_rating: agent.ratingLowerBound ?? 0,
    rating_count: agent.ratingCount,
    task_count: agent.taskCount,
    created_at: agent.createdAt.getTime(),
    updated_at: agent.updatedAt.getTime(),
  };
}
