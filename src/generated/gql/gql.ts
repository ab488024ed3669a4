/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment AgentOwnerFields on Agent {\n    id\n    name\n    slug\n    description\n    longDescription\n    endpoint\n    protocols\n    categories\n    capabilities\n    tags\n    docsUrl\n    manifestUrl\n    authType\n    version\n    inputSchema\n    twitterUrl\n    status\n    verified\n    healthStatus\n    trustScore\n    trustTier\n    hasWebhookSecret\n    priceCents\n    taskCount\n    avgRating\n    createdAt\n    updatedAt\n  }\n": typeof types.AgentOwnerFieldsFragmentDoc,
    "\n      query RestListAgents {\n        myAgents {\n          ...AgentOwnerFields\n        }\n      }\n    ": typeof types.RestListAgentsDocument,
    "\n      mutation RestCreateAgent($input: AgentCreateInput!) {\n        createAgent(input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    ": typeof types.RestCreateAgentDocument,
    "\n      query RestGetAgent($id: ID!) {\n        myAgent(id: $id) {\n          ...AgentOwnerFields\n        }\n      }\n    ": typeof types.RestGetAgentDocument,
    "\n      mutation RestUpdateAgent($id: ID!, $input: AgentUpdateInput!) {\n        updateAgent(id: $id, input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    ": typeof types.RestUpdateAgentDocument,
    "\n      mutation RestDeleteAgent($id: ID!) {\n        deleteAgent(id: $id) {\n          message\n        }\n      }\n    ": typeof types.RestDeleteAgentDocument,
    "\n      mutation RestRotateWebhookSecret($id: ID!) {\n        rotateAgentWebhookSecret(id: $id) {\n          webhookSecret\n          message\n        }\n      }\n    ": typeof types.RestRotateWebhookSecretDocument,
    "\n      mutation RestRemoveWebhookSecret($id: ID!) {\n        removeAgentWebhookSecret(id: $id) {\n          id\n          hasWebhookSecret\n        }\n      }\n    ": typeof types.RestRemoveWebhookSecretDocument,
};
const documents: Documents = {
    "\n  fragment AgentOwnerFields on Agent {\n    id\n    name\n    slug\n    description\n    longDescription\n    endpoint\n    protocols\n    categories\n    capabilities\n    tags\n    docsUrl\n    manifestUrl\n    authType\n    version\n    inputSchema\n    twitterUrl\n    status\n    verified\n    healthStatus\n    trustScore\n    trustTier\n    hasWebhookSecret\n    priceCents\n    taskCount\n    avgRating\n    createdAt\n    updatedAt\n  }\n": types.AgentOwnerFieldsFragmentDoc,
    "\n      query RestListAgents {\n        myAgents {\n          ...AgentOwnerFields\n        }\n      }\n    ": types.RestListAgentsDocument,
    "\n      mutation RestCreateAgent($input: AgentCreateInput!) {\n        createAgent(input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    ": types.RestCreateAgentDocument,
    "\n      query RestGetAgent($id: ID!) {\n        myAgent(id: $id) {\n          ...AgentOwnerFields\n        }\n      }\n    ": types.RestGetAgentDocument,
    "\n      mutation RestUpdateAgent($id: ID!, $input: AgentUpdateInput!) {\n        updateAgent(id: $id, input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    ": types.RestUpdateAgentDocument,
    "\n      mutation RestDeleteAgent($id: ID!) {\n        deleteAgent(id: $id) {\n          message\n        }\n      }\n    ": types.RestDeleteAgentDocument,
    "\n      mutation RestRotateWebhookSecret($id: ID!) {\n        rotateAgentWebhookSecret(id: $id) {\n          webhookSecret\n          message\n        }\n      }\n    ": types.RestRotateWebhookSecretDocument,
    "\n      mutation RestRemoveWebhookSecret($id: ID!) {\n        removeAgentWebhookSecret(id: $id) {\n          id\n          hasWebhookSecret\n        }\n      }\n    ": types.RestRemoveWebhookSecretDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AgentOwnerFields on Agent {\n    id\n    name\n    slug\n    description\n    longDescription\n    endpoint\n    protocols\n    categories\n    capabilities\n    tags\n    docsUrl\n    manifestUrl\n    authType\n    version\n    inputSchema\n    twitterUrl\n    status\n    verified\n    healthStatus\n    trustScore\n    trustTier\n    hasWebhookSecret\n    priceCents\n    taskCount\n    avgRating\n    createdAt\n    updatedAt\n  }\n"): (typeof documents)["\n  fragment AgentOwnerFields on Agent {\n    id\n    name\n    slug\n    description\n    longDescription\n    endpoint\n    protocols\n    categories\n    capabilities\n    tags\n    docsUrl\n    manifestUrl\n    authType\n    version\n    inputSchema\n    twitterUrl\n    status\n    verified\n    healthStatus\n    trustScore\n    trustTier\n    hasWebhookSecret\n    priceCents\n    taskCount\n    avgRating\n    createdAt\n    updatedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestListAgents {\n        myAgents {\n          ...AgentOwnerFields\n        }\n      }\n    "): (typeof documents)["\n      query RestListAgents {\n        myAgents {\n          ...AgentOwnerFields\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestCreateAgent($input: AgentCreateInput!) {\n        createAgent(input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    "): (typeof documents)["\n      mutation RestCreateAgent($input: AgentCreateInput!) {\n        createAgent(input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestGetAgent($id: ID!) {\n        myAgent(id: $id) {\n          ...AgentOwnerFields\n        }\n      }\n    "): (typeof documents)["\n      query RestGetAgent($id: ID!) {\n        myAgent(id: $id) {\n          ...AgentOwnerFields\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestUpdateAgent($id: ID!, $input: AgentUpdateInput!) {\n        updateAgent(id: $id, input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    "): (typeof documents)["\n      mutation RestUpdateAgent($id: ID!, $input: AgentUpdateInput!) {\n        updateAgent(id: $id, input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestDeleteAgent($id: ID!) {\n        deleteAgent(id: $id) {\n          message\n        }\n      }\n    "): (typeof documents)["\n      mutation RestDeleteAgent($id: ID!) {\n        deleteAgent(id: $id) {\n          message\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRotateWebhookSecret($id: ID!) {\n        rotateAgentWebhookSecret(id: $id) {\n          webhookSecret\n          message\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRotateWebhookSecret($id: ID!) {\n        rotateAgentWebhookSecret(id: $id) {\n          webhookSecret\n          message\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRemoveWebhookSecret($id: ID!) {\n        removeAgentWebhookSecret(id: $id) {\n          id\n          hasWebhookSecret\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRemoveWebhookSecret($id: ID!) {\n        removeAgentWebhookSecret(id: $id) {\n          id\n          hasWebhookSecret\n        }\n      }\n    "];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;