// The GraphQL operations of the A2A adapter that no /v1 route runs (tasks go through the REST routes,
// rest/runner.ts createRouteExecutor, so their checks and errors are REST's).

// A task's fields as the adapter maps them (a2a/mapping.ts OurTask).
export const TASK_SELECTION = 'id status title description input result error agentId inputRequest createdAt updatedAt receipt payment { method status amountCents autoCharged }';

// A public agent with what its card shows (a2a/cards.ts).
export const AGENT_FOR_CARD = `query A2AAgentCard($slugOrId: String!) {
  agent(slugOrId: $slugOrId) {
    id name slug description longDescription version docsUrl capabilities tags categories inputSchema
    priceCents trustTier healthStatus status verified
  }
}`;
