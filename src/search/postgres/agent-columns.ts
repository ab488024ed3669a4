// The agents columns as Prisma's Agent fields, so that the search query itself can return the page's
// agents (one round trip instead of ids, then findMany). Typed against Agent: a field added to the model
// fails the typecheck until it is listed here, so these rows never lack what findMany would return.
import { Prisma, type Agent } from '../../generated/prisma/client.js';

// null: a column search does not read (its answer never shows it); the row carries null there.
const COLUMNS: { [K in keyof Agent]-?: string | null } = {
  id: 'id',
  ownerId: 'owner_id',
  name: 'name',
  slug: 'slug',
  description: 'description',
  longDescription: 'long_description',
  endpoint: 'endpoint',
  protocols: 'protocols',
  categories: 'categories',
  capabilities: 'capabilities',
  tags: 'tags',
  docsUrl: 'docs_url',
  manifestUrl: 'manifest_url',
  authType: 'auth_type',
  version: 'version',
  inputSchema: 'input_schema',
  twitterUrl: 'twitter_url',
  // Enums read as text: Prisma's enums are their names as strings.
  status: 'status::text',
  verified: 'verified',
  healthStatus: 'health_status::text',
  healthCheckedAt: 'health_checked_at',
  trustScore: 'trust_score',
  trustTier: 'trust_tier::text',
  webhookSecretEnc: 'webhook_secret_enc',
  previousWebhookSecretEnc: 'previous_webhook_secret_enc',
  previousWebhookSecretExpiresAt: 'previous_webhook_secret_expires_at',
  deliveryState: 'delivery_state::text',
  endpointFailStreak: 'endpoint_fail_streak',
  endpointFailingSince: 'endpoint_failing_since',
  endpointDisabledAt: 'endpoint_disabled_at',
  endpointPingOkAt: 'endpoint_ping_ok_at',
  maxConcurrentTasks: 'max_concurrent_tasks',
  maxDeliveriesPerSecond: 'max_deliveries_per_second',
  deliveryWindowStart: 'delivery_window_start',
  deliveryWindowCount: 'delivery_window_count',
  successLowerBound: 'success_lower_bound',
  ratingBayes: 'rating_bayes',
  ratingLowerBound: 'rating_lower_bound',
  priceCents: 'price_cents',
  taskCount: 'task_count',
  completedCount: 'completed_count',
  failedCount: 'failed_count',
  ratingCount: 'rating_count',
  ratingSum: 'rating_sum',
  verifiedAt: 'verified_at',
  healthFailStreak: 'health_fail_streak',
  lastHealthyAt: 'last_healthy_at',
  lastUnhealthyAt: 'last_unhealthy_at',
  recentFinished: 'recent_finished',
  recentSuccessRate: 'recent_success_rate',
  p50CompletionMs: 'p50_completion_ms',
  p95CompletionMs: 'p95_completion_ms',
  // An A2A card is up to 256 KiB and PublicAgent never shows it.
  a2aCard: null,
  cardVerified: 'card_verified',
  cardFetchedAt: 'card_fetched_at',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

export const AGENT_FIELDS = Object.keys(COLUMNS) as Array<keyof Agent>;

// `a.owner_id AS "ownerId", …` for a select list over agents aliased `a`. Constant text, no input.
export const AGENT_SELECT = Prisma.raw(AGENT_FIELDS.map((field) => `${COLUMNS[field] === null ? 'NULL' : `a.${COLUMNS[field]}`} AS "${field}"`).join(', '));

// The Agent in a result row that also carries other columns.
export function agentOf(row: Record<string, unknown>): Agent {
  const agent = {} as Record<string, unknown>;
  for (const field of AGENT_FIELDS) agent[field] = row[field];
  return agent as unknown as Agent;
}
