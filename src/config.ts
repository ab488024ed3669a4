// Every setting of the service, read from the environment once and checked. A bad value stops the
// process at start with one line naming the variable and what it expects, instead of failing later.
import { z } from 'zod';
import { parseKey } from './crypto/server-key.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  // Loopback unless told otherwise: a development server with open sign-up and private endpoints allowed
  // must not be reachable from the rest of the network (the image sets HOST=0.0.0.0 for its container).
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  PUBLIC_BASE_URL: z.url().optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL').optional(),
  // Server-side prepared statements on a PostgreSQL server (DATABASE_URL). Turn off behind a connection
  // pooler in transaction mode that does not track them (PgBouncer before 1.21).
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  // Connections of each of the process's pools on a PostgreSQL server (the service's, and the searches').
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  DATA_DIR: z.string().min(1).default('./.data'),
  SECRET_KEY: z
    .string()
    .refine((text) => {
      try {
        return parseKey(text).length === 32;
      } catch {
        return false;
      }
    }, 'expected 32 bytes written as 64 hex digits or base64 (make one with: openssl rand -hex 32)')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  // Browser origins allowed to call /v1 and /graphql, comma-separated (`https://app.example.com,http://localhost:5173`).
  CORS_ORIGINS: z
    .string()
    .describe('expected a comma-separated list of origins such as https://app.example.com,http://localhost:5173')
    .transform((v) => v.split(',').map((o) => o.trim().replace(/\/$/, '')).filter(Boolean))
    .pipe(z.array(z.url({ protocol: /^https?$/ }).max(200)).max(50))
    .optional(),
  AUTH_JWKS_URL: z.url().optional(),
  AUTH_ISSUER: z.string().optional(),
  AUTH_AUDIENCE: z.string().optional(),
  // Defaults to true in development (agents on localhost), false otherwise; see toConfig.
  ALLOW_PRIVATE_ENDPOINTS: bool.optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  // Requests the owner's webhook test and check send to one agent's endpoint a minute (a check sends three).
  WEBHOOK_TEST_PER_MINUTE: z.coerce.number().int().min(3).max(1000).default(10),
  RATE_LIMIT_FAILED_AUTH_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  // When set, /metrics answers only requests with this bearer token (see http/metrics-access.ts).
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').max(512).regex(/^\S+$/, 'no spaces').optional(),
  // How many reverse proxies stand in front of the service (see http/client-address.ts).
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  // OAuth (services/oauth/): how long an app's access token, refresh token and authorization code live.
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  OAUTH_REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  OAUTH_CODE_TTL_SECONDS: z.coerce.number().int().min(10).max(600).default(60),
  // Open subscriptions (WebSocket and SSE together) one user, and one client address, may hold in a process.
  SUBSCRIPTIONS_PER_USER: z.coerce.number().int().min(1).default(20),
  SUBSCRIPTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  RATE_LIMIT_KEY_PREFIX: z.string().regex(/^[\w.-]{1,64}$/, 'letters, digits, _ . - only, at most 64').default('rl'),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  // false: this process serves HTTP but runs no jobs (deliveries, expiry, payments, search sync), which
  // other processes on the same PostgreSQL server run. Needs DATABASE_URL: the embedded database has
  // one process, which must run them.
  RUN_JOBS: bool.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(5),
  WORKER_POLL_INTERVAL_MS: z.coerce.number().int().min(50).default(500),
  // With a PostgreSQL server: how often a process records that its worker is alive, and after how long
  // without that record another process releases the jobs it had locked.
  WORKER_HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(100).default(5_000),
  WORKER_DEAD_AFTER_MS: z.coerce.number().int().min(500).default(30_000),
  // On shutdown, how long the jobs running may take to finish; then they are stopped (a delivery waiting on
  // its endpoint among them) and run again at the next start or by another process.
  WORKER_STOP_GRACE_MS: z.coerce.number().int().min(0).max(60_000).default(6_000),
  // On SIGTERM, how long /readyz answers 503 while the process still serves, before it stops taking
  // connections: time for a load balancer to take it out of rotation.
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  // Delivery operations (issue 22): how long attempts are kept; when a failing endpoint is disabled (both
  // conditions: that many failed attempts in a row, the first at least that long ago).
  DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  ENDPOINT_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).max(100_000).default(20),
  ENDPOINT_DISABLE_AFTER_SECONDS: z.coerce.number().int().min(0).default(86_400),
  // Reputation: the weight (in ratings) of the marketplace mean in an agent's Bayesian rating average.
  RATING_MIN_COUNT: z.coerce.number().int().min(1).max(10_000).default(10),
  // How long an A2A SendMessage without returnImmediately waits for its task to finish or ask for input
  // before answering the task as it is.
  A2A_BLOCKING_WAIT_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  PLATFORM_FEE_BPS: z.coerce.number().int().min(0).max(10_000).default(1000),
  STRIPE_SECRET_KEY: z.string().optional(),
  // The key the dashboard gives Stripe.js (publishable: safe in the page). Set with STRIPE_SECRET_KEY.
  STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_(test|live)_[A-Za-z0-9]+$/, 'must be a Stripe publishable key (pk_test_… or pk_live_…)').optional(),
  // The simulated processor moves no money and confirms holds on request, so production refuses it
  // unless the operator asks for it by this name (a staging copy, a load test).
  ALLOW_SIMULATED_PAYMENTS: bool.default(false),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_HOST: z.string().optional(),
  STRIPE_API_PORT: z.coerce.number().int().optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  TYPESENSE_URL: z.url().optional(),
  TYPESENSE_API_KEY: z.string().optional(),
  TYPESENSE_COLLECTION: z.string().default('agents'),
  // Search results of the PostgreSQL engine are answered again from memory until a write changes what
  // searches read (src/search/result-cache.ts), for at most this long; 0 turns that off. At most
  // SEARCH_CACHE_MAX_AGENTS agents are held over all results.
  SEARCH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  SEARCH_CACHE_MAX_AGENTS: z.coerce.number().int().min(1).max(1_000_000).default(20_000),
  // The health sweep: how often agents' health evidence is aged out and stale agents are probed.
  HEALTH_CHECK_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(900),
  HEALTH_PROBE_ENABLED: bool.default(true),
  HEALTH_PROBE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  // An input request unanswered this long cancels the task; an uncontested dispute refunds after this long.
  INPUT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(86_400),
  DISPUTE_ANSWER_SECONDS: z.coerce.number().int().min(1).default(259_200),
  // Receipts (docs/receipts.md): the version of the service's signing key (derived from SECRET_KEY), and
  // until when the key of the version before stays published after a rotation.
  RECEIPT_KEY_VERSION: z.coerce.number().int().min(1).max(1000).default(1),
  RECEIPT_PREVIOUS_KEY_UNTIL: z.string().datetime({ offset: true, message: 'must be an ISO 8601 date and time' }).optional(),
  // Accounts (docs/accounts.md): whether the dashboard may create accounts (closed: only the CLI does),
  // where sign-in links are mailed from and through, and how long a browser session lasts.
  SIGNUP: z.enum(['open', 'closed']).default('open'),
  SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL').optional(),
  // Production with open sign-up and no mail lets anyone make an account that has no way back in but its
  // passkey; an operator who wants exactly that says so.
  ALLOW_OPEN_SIGNUP_WITHOUT_MAIL: bool.default(false),
  EMAIL_FROM: z.string().min(3).max(200).default('Task marketplace <no-reply@localhost>'),
  SESSION_IDLE_TIMEOUT_MINUTES: z.coerce.number().int().min(1).max(525_600).default(10_080),
  SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(400).default(30),
  // Files (docs/files.md): where their bytes go (local disk under DATA_DIR unless an s3:// URL), the
  // largest upload, the bytes one user may keep, and how long files of finished tasks are kept.
  FILE_STORAGE_URL: z.string().regex(/^s3:\/\/[^/?#]+/, 'must look like s3://bucket?endpoint=…&region=…').optional(),
  FILE_MAX_BYTES: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(100 * 1024 * 1024),
  FILE_QUOTA_BYTES: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1024 * 1024 * 1024),
  FILE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
});

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof schema>) {
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicBaseUrl: env.PUBLIC_BASE_URL?.replace(/\/$/, '') ?? null,
    databaseUrl: env.DATABASE_URL ?? null,
    databasePreparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    dataDir: env.DATA_DIR,
    secretKey: env.SECRET_KEY ?? null,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT ?? null,
    corsOrigins: env.CORS_ORIGINS ?? [],
    webhookTestPerMinute: env.WEBHOOK_TEST_PER_MINUTE,
    metricsToken: env.METRICS_TOKEN ?? null,
    auth: { jwksUrl: env.AUTH_JWKS_URL ?? null, issuer: env.AUTH_ISSUER ?? null, audience: env.AUTH_AUDIENCE ?? null },
    allowPrivateEndpoints: env.ALLOW_PRIVATE_ENDPOINTS ?? env.NODE_ENV === 'development',
    rateLimit: {
      perMinute: env.RATE_LIMIT_PER_MINUTE,
      failedAuthPerMinute: env.RATE_LIMIT_FAILED_AUTH_PER_MINUTE,
      keyPrefix: env.RATE_LIMIT_KEY_PREFIX,
      trustedProxyHops: env.TRUSTED_PROXY_HOPS,
      redisUrl: env.REDIS_URL ?? null,
    },
    oauth: {
      accessTokenTtlSeconds: env.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlDays: env.OAUTH_REFRESH_TOKEN_TTL_DAYS,
      codeTtlSeconds: env.OAUTH_CODE_TTL_SECONDS,
    },
    subscriptions: { perUser: env.SUBSCRIPTIONS_PER_USER, perAddress: env.SUBSCRIPTIONS_PER_ADDRESS },
    worker: {
      run: env.RUN_JOBS,
      concurrency: env.WORKER_CONCURRENCY,
      pollIntervalMs: env.WORKER_POLL_INTERVAL_MS,
      heartbeatIntervalMs: env.WORKER_HEARTBEAT_INTERVAL_MS,
      deadAfterMs: env.WORKER_DEAD_AFTER_MS,
      stopGraceMs: env.WORKER_STOP_GRACE_MS,
    },
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    deliveryTimeoutMs: env.DELIVERY_TIMEOUT_MS,
    deliveryMaxAttempts: env.DELIVERY_MAX_ATTEMPTS,
    receipts: {
      version: env.RECEIPT_KEY_VERSION,
      previousUntil: env.RECEIPT_PREVIOUS_KEY_UNTIL ? new Date(env.RECEIPT_PREVIOUS_KEY_UNTIL) : null,
    },
    deliveryOps: {
      retentionDays: env.DELIVERY_RETENTION_DAYS,
      disableAfterFailures: env.ENDPOINT_DISABLE_AFTER_FAILURES,
      disableAfterSeconds: env.ENDPOINT_DISABLE_AFTER_SECONDS,
    },
    reputation: { ratingMinCount: env.RATING_MIN_COUNT },
    a2aBlockingWaitMs: env.A2A_BLOCKING_WAIT_MS,
    platformFeeBps: env.PLATFORM_FEE_BPS,
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY ?? null,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? null,
      allowSimulated: env.ALLOW_SIMULATED_PAYMENTS,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null,
      apiHost: env.STRIPE_API_HOST ?? null,
      apiPort: env.STRIPE_API_PORT ?? null,
      apiProtocol: env.STRIPE_API_PROTOCOL ?? null,
    },
    typesense: { url: env.TYPESENSE_URL ?? null, apiKey: env.TYPESENSE_API_KEY ?? null, collection: env.TYPESENSE_COLLECTION },
    searchCache: { ttlMs: env.SEARCH_CACHE_TTL_MS, maxAgents: env.SEARCH_CACHE_MAX_AGENTS },
    trust: { inputTimeoutSeconds: env.INPUT_TIMEOUT_SECONDS, disputeAnswerSeconds: env.DISPUTE_ANSWER_SECONDS },
    accounts: {
      signup: env.SIGNUP,
      smtpUrl: env.SMTP_URL ?? null,
      allowOpenSignupWithoutMail: env.ALLOW_OPEN_SIGNUP_WITHOUT_MAIL,
      emailFrom: env.EMAIL_FROM,
      sessionIdleMs: env.SESSION_IDLE_TIMEOUT_MINUTES * 60_000,
      sessionMaxAgeMs: env.SESSION_MAX_AGE_DAYS * 86_400_000,
    },
    files: {
      storageUrl: env.FILE_STORAGE_URL ?? null,
      maxBytes: env.FILE_MAX_BYTES,
      quotaBytes: env.FILE_QUOTA_BYTES,
      retentionDays: env.FILE_RETENTION_DAYS,
    },
    health: {
      checkIntervalSeconds: env.HEALTH_CHECK_INTERVAL_SECONDS,
      probeEnabled: env.HEALTH_PROBE_ENABLED,
      probeTimeoutMs: env.HEALTH_PROBE_TIMEOUT_MS,
    },
  };
}

// One line per bad setting: its name and what it expects (the value itself only where it cannot be a secret).
export class ConfigError extends Error {}

// Values that may hold a credential are never repeated back.
const SECRET_LOOKING = /SECRET|KEY|TOKEN|PASSWORD|_URL$/;

// What a setting accepts, in words, read from its schema: "a whole number from 0 to 65535".
function expectation(name: string, issue: z.core.$ZodIssue): string {
  let field = (schema.shape as Record<string, z.ZodType>)[name];
  while (field && (field instanceof z.ZodDefault || field instanceof z.ZodOptional)) field = field.unwrap() as z.ZodType;
  const described = field instanceof z.ZodPipe ? (field.in as z.ZodType).description : field?.description;
  if (described) return described;
  const bounded = (n: number | null | undefined) => typeof n === 'number' && Math.abs(n) < Number.MAX_SAFE_INTEGER;
  if (field instanceof z.ZodNumber) {
    const kind = field.isInt ? 'a whole number' : 'a number';
    const { minValue: min, maxValue: max } = field;
    if (bounded(min) && bounded(max)) return `expected ${kind} from ${min} to ${max}`;
    if (bounded(min)) return `expected ${kind} of at least ${min}`;
    return `expected ${kind}`;
  }
  if (field instanceof z.ZodEnum) return `expected one of ${field.options.join(', ')}`;
  if (field instanceof z.ZodPipe && field.in instanceof z.ZodEnum && field.in.options.includes('true')) return 'expected true or false';
  if (field instanceof z.ZodURL) return 'expected a URL such as https://example.com';
  return issue.message.startsWith('Invalid') || issue.message.startsWith('Too') ? `not accepted (${issue.message})` : issue.message;
}

function describeIssue(issue: z.core.$ZodIssue, env: Record<string, string>): string {
  const name = String(issue.path[0]);
  const value = env[name];
  const shown = value !== undefined && !SECRET_LOOKING.test(name) ? `, got ${JSON.stringify(value.length > 60 ? value.slice(0, 60) + '…' : value)}` : '';
  return `${name}: ${expectation(name, issue)}${shown}`;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty variables count as unset, as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string>;
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    // One line per setting, even when zod found several things wrong with it.
    const lines = [...new Map(parsed.error.issues.map((i) => [String(i.path[0]), describeIssue(i, present)])).values()];
    throw new ConfigError(lines.join('\n'));
  }
  const config = toConfig(parsed.data);
  if (config.auth.jwksUrl && !config.auth.issuer) throw new ConfigError('AUTH_ISSUER: required with AUTH_JWKS_URL');
  if (config.stripe.secretKey && !config.stripe.webhookSecret) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY');
  }
  checkStripeKeys(config.stripe);
  if (config.env === 'production' && !config.stripe.secretKey && !config.stripe.allowSimulated) {
    throw new ConfigError(
      'STRIPE_SECRET_KEY: required in production; set ALLOW_SIMULATED_PAYMENTS=true to run the simulated payment processor (for testing only, it moves no money)',
    );
  }
  if (Boolean(config.typesense.url) !== Boolean(config.typesense.apiKey)) {
    throw new ConfigError('TYPESENSE_URL and TYPESENSE_API_KEY: set both or neither');
  }
  if (config.env === 'production' && config.databaseUrl && !config.secretKey) {
    throw new ConfigError('SECRET_KEY: required in production with DATABASE_URL');
  }
  if (config.env === 'production' && config.accounts.signup === 'open' && !config.accounts.smtpUrl && !config.accounts.allowOpenSignupWithoutMail) {
    throw new ConfigError(
      'SMTP_URL: required in production while SIGNUP is open (sign-in links are mailed); set SMTP_URL, or SIGNUP=closed, or ALLOW_OPEN_SIGNUP_WITHOUT_MAIL=true for accounts with passkeys only',
    );
  }
  if (!config.worker.run && !config.databaseUrl) {
    throw new ConfigError('RUN_JOBS: false needs DATABASE_URL (with the embedded database, this process is the only one that can run jobs)');
  }
  if (config.worker.deadAfterMs < 2 * config.worker.heartbeatIntervalMs) {
    throw new ConfigError('WORKER_DEAD_AFTER_MS: must be at least twice WORKER_HEARTBEAT_INTERVAL_MS');
  }
  return config;
}

export function baseUrlOf(config: Config, boundPort: number): string {
  return config.publicBaseUrl ?? `http://localhost:${boundPort}`;
}

// The dashboard confirms holds with Stripe.js under the publishable key, the service places them under the
// secret key: both belong to one account and one mode, or every confirmation would fail at Stripe.
function checkStripeKeys(stripe: { secretKey: string | null; publishableKey: string | null }): void {
  if (Boolean(stripe.secretKey) !== Boolean(stripe.publishableKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY: set both or neither');
  }
  if (!stripe.secretKey || !stripe.publishableKey) return;
  const secretMode = /^(sk|rk)_(test|live)_/.exec(stripe.secretKey)?.[2];
  const publishableMode = /^pk_(test|live)_/.exec(stripe.publishableKey)?.[1];
  if (secretMode !== publishableMode) {
    throw new ConfigError(`STRIPE_PUBLISHABLE_KEY: a ${publishableMode} key does not go with a ${secretMode ?? 'non-standard'} STRIPE_SECRET_KEY; use keys of one mode (pk_test_ with sk_test_, pk_live_ with sk_live_)`);
  }
}
