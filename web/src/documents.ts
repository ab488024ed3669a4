// Every GraphQL operation of the dashboard. Public agent queries select their fields inline, from the
// fields the public agent type offers (no fragments on the owner's Agent type).
import { graphql } from './generated/gql/index.js';

export const DiscoverQuery = graphql(`
  query DashDiscover(
    $q: String
    $protocols: [String!]
    $categories: [String!]
    $capabilities: [String!]
    $status: AgentStatus
    $sort: DiscoverySort
    $page: Int
    $perPage: Int
  ) {
    discover(
      q: $q
      protocols: $protocols
      categories: $categories
      capabilities: $capabilities
      status: $status
      sort: $sort
      page: $page
      perPage: $perPage
    ) {
      data {
        id
        name
        slug
        description
        tags
        capabilities
        trustTier
        avgRating
        ratingCount
        taskCount
        completedCount
        failedCount
        priceCents
        status
        iconUrl
        ownerName
        verified
      }
      total
      page
      perPage
      totalPages
    }
  }
`);

export const DiscoverFiltersQuery = graphql(`
  query DashDiscoverFilters($status: AgentStatus) {
    discoverFilters(status: $status) {
      capabilities {
        value
        count
      }
      protocols {
        value
        count
      }
      categories {
        value
        count
      }
    }
  }
`);

export const AgentDetailQuery = graphql(`
  query DashAgentDetail($slugOrId: String!) {
    agent(slugOrId: $slugOrId) {
      id
      name
      slug
      description
      longDescription
      protocols
      categories
      capabilities
      tags
      endpoint
      docsUrl
      authType
      version
      status
      verified
      healthStatus
      inputSchema
      twitterUrl
      taskCount
      avgRating
      createdAt
      updatedAt
      priceCents
      trustTier
      iconUrl
      ownerName
      ratingCount
      completedCount
      failedCount
      daily(days: 14) {
        day
        completed
        failed
      }
      stats {
        successRate
        successLowerBound
        p50CompletionMs
        p95CompletionMs
        recentTasks
        ratingCount
        ratingAverage
        ratingLowerBound
      }
    }
  }
`);

export const MeQuery = graphql(`
  query DashMe {
    me {
      id
      email
      name
    }
  }
`);

export const MyAgentIdsQuery = graphql(`
  query DashMyAgentIds {
    myAgents {
      id
    }
  }
`);

export const AccountQuery = graphql(`
  query DashAccount {
    me {
      id
      email
      emailProven
      name
      notificationUrl
    }
  }
`);

export const SimulateConfirmMutation = graphql(`
  mutation DashSimulateConfirm($input: SimulateCardConfirmationInput!) {
    simulateCardConfirmation(input: $input) {
      status
    }
  }
`);

graphql(`
  fragment DashTask on Task {
    id
    status
    title
    description
    input
    priority
    maxPriceCents
    agentId
    agent {
      id
      name
      slug
      iconUrl
    }
    requesterId
    result
    error
    rating
    expiresAt
    createdAt
    updatedAt
    matchedAt
    startedAt
    finishedAt
    payment {
      method
      status
      amountCents
      cardBrand
      cardLast4
      heldAt
      settledAt
    }
    reviewWindowSeconds
    inputRequest
    inputRounds
    inputHash
    resultHash
    receipt
    reviewEndsAt
    approvedBy
    disputeReason
    disputeStatement
    disputeContestedAt
    disputeAnswerBy
    history {
      at
      actor
      action
      fromStatus
      toStatus
      note
    }
    routing {
      status
      reason
    }
    deliveries {
      id
      type
      status
      nextAttemptAt
      attempts {
        number
        at
        statusCode
        latencyMs
        error
      }
    }
  }
`);

export const TasksQuery = graphql(`
  query DashTasks($role: TaskRole, $status: TaskStatus, $cursor: String, $limit: Int) {
    tasks(role: $role, status: $status, cursor: $cursor, limit: $limit) {
      data {
        ...DashTask
      }
      nextCursor
    }
  }
`);

export const TaskQuery = graphql(`
  query DashTaskById($id: ID!) {
    task(id: $id) {
      ...DashTask
    }
  }
`);

export const TaskUpdatedSubscription = graphql(`
  subscription DashTaskUpdated($id: ID!) {
    taskUpdated(id: $id) {
      ...DashTask
    }
  }
`);

export const CancelTaskMutation = graphql(`
  mutation DashCancelTask($id: ID!) {
    cancelTask(id: $id) {
      ...DashTask
    }
  }
`);

export const ProvideTaskInputMutation = graphql(`
  mutation DashProvideTaskInput($id: ID!, $input: JSON!) {
    provideTaskInput(id: $id, input: $input) {
      ...DashTask
    }
  }
`);

export const ApproveTaskMutation = graphql(`
  mutation DashApproveTask($id: ID!) {
    approveTask(id: $id) {
      ...DashTask
    }
  }
`);

export const RejectTaskMutation = graphql(`
  mutation DashRejectTask($id: ID!, $reason: String!) {
    rejectTask(id: $id, reason: $reason) {
      ...DashTask
    }
  }
`);

export const RefundTaskMutation = graphql(`
  mutation DashRefundTask($id: ID!) {
    refundTask(id: $id) {
      ...DashTask
    }
  }
`);

export const ContestTaskMutation = graphql(`
  mutation DashContestTask($id: ID!, $statement: String!) {
    contestTask(id: $id, statement: $statement) {
      ...DashTask
    }
  }
`);

export const RateTaskMutation = graphql(`
  mutation DashRateTask($taskId: ID!, $rating: Int!) {
    rateTask(taskId: $taskId, rating: $rating) {
      rating
      avgRating
    }
  }
`);

export const AcceptTaskMutation = graphql(`
  mutation DashAcceptTask($id: ID!) {
    acceptTask(id: $id) {
      ...DashTask
    }
  }
`);

export const StartTaskMutation = graphql(`
  mutation DashStartTask($id: ID!) {
    startTask(id: $id) {
      ...DashTask
    }
  }
`);

export const CompleteTaskMutation = graphql(`
  mutation DashCompleteTask($id: ID!, $result: JSON!) {
    completeTask(id: $id, result: $result) {
      ...DashTask
    }
  }
`);

export const FailTaskMutation = graphql(`
  mutation DashFailTask($id: ID!, $error: String!) {
    failTask(id: $id, error: $error) {
      ...DashTask
    }
  }
`);

// The owner's own agents: the owner type, every field.
graphql(`
  fragment DashOwnAgent on Agent {
    id
    name
    maxConcurrentTasks
    maxDeliveriesPerSecond
    slug
    description
    longDescription
    endpoint
    deliveryMode
    docsUrl
    manifestUrl
    twitterUrl
    authType
    version
    capabilities
    protocols
    categories
    tags
    priceCents
    status
    inputSchema
    hasWebhookSecret
    previousWebhookSecretExpiresAt
    deliveryState
    endpointFailingSince
    endpointDisabledAt
    healthStatus
    trustTier
    taskCount
    avgRating
    updatedAt
    cardVerified
    cardFetchedAt
    iconUrl
    provider {
      organization
      url
    }
    streaming
    pushNotifications
  }
`);

export const ImportAgentMutation = graphql(`
  mutation DashImportAgent($cardUrl: String!) {
    importAgent(cardUrl: $cardUrl) {
      ...DashOwnAgent
    }
  }
`);

export const RefreshCardMutation = graphql(`
  mutation DashRefreshCard($id: ID!) {
    refreshAgentCard(id: $id) {
      ...DashOwnAgent
    }
  }
`);

export const MyAgentsQuery = graphql(`
  query DashMyAgents {
    myAgents {
      ...DashOwnAgent
    }
  }
`);

export const MyAgentQuery = graphql(`
  query DashMyAgent($id: ID!) {
    myAgent(id: $id) {
      ...DashOwnAgent
    }
  }
`);

export const CreateAgentMutation = graphql(`
  mutation DashCreateAgent($input: AgentCreateInput!) {
    createAgent(input: $input) {
      ...DashOwnAgent
    }
  }
`);

export const UpdateAgentMutation = graphql(`
  mutation DashUpdateAgent($id: ID!, $input: AgentUpdateInput!) {
    updateAgent(id: $id, input: $input) {
      ...DashOwnAgent
    }
  }
`);

export const RotateSecretMutation = graphql(`
  mutation DashRotateSecret($id: ID!, $graceSeconds: Int) {
    rotateAgentWebhookSecret(id: $id, graceSeconds: $graceSeconds) {
      webhookSecret
      previousSecretExpiresAt
      message
    }
  }
`);

export const TestWebhookMutation = graphql(`
  mutation DashTestWebhook($agentId: ID!) {
    testAgentWebhook(agentId: $agentId) {
      ok
      statusCode
      latencyMs
      error
      bodyStart
    }
  }
`);

export const CheckWebhookMutation = graphql(`
  mutation DashCheckWebhook($agentId: ID!) {
    checkAgentWebhook(agentId: $agentId) {
      verifiesSignatures
      acceptedValid
      refusedWrongSignature
      refusedStaleTimestamp
    }
  }
`);

export const EnableEndpointMutation = graphql(`
  mutation DashEnableEndpoint($agentId: ID!) {
    enableAgentEndpoint(agentId: $agentId) {
      ...DashOwnAgent
    }
  }
`);

export const RemoveSecretMutation = graphql(`
  mutation DashRemoveSecret($id: ID!) {
    removeAgentWebhookSecret(id: $id) {
      ...DashOwnAgent
    }
  }
`);

export const DeliveriesQuery = graphql(`
  query DashDeliveries($agentId: ID!, $limit: Int) {
    agentDeliveries(agentId: $agentId, limit: $limit) {
      id
      taskId
      type
      task {
        id
        title
        status
      }
      status
      attemptCount
      nextAttemptAt
      createdAt
      attempts {
        number
        at
        statusCode
        latencyMs
        error
      }
    }
  }
`);

export const RedeliverMutation = graphql(`
  mutation DashRedeliver($agentId: ID!, $deliveryId: ID!) {
    redeliver(agentId: $agentId, deliveryId: $deliveryId) {
      id
      status
      attemptCount
    }
  }
`);

export const NotificationsQuery = graphql(`
  query DashNotifications($limit: Int) {
    me {
      id
      notificationUrl
    }
    myNotifications(limit: $limit) {
      id
      type
      agentId
      data
      status
      createdAt
    }
  }
`);

export const UpdateAccountMutation = graphql(`
  mutation DashUpdateAccount($input: AccountUpdateInput!) {
    updateAccount(input: $input) {
      notificationUrl
      notificationSecret
      message
    }
  }
`);

export const RequesterRecordQuery = graphql(`
  query DashRequesterRecord($requesterId: ID!) {
    requesterRecord(requesterId: $requesterId) {
      tasks
      reviewed
      approvalRate
      rejectionRate
      disputeRate
      cancellationRate
    }
  }
`);

export const RecoverDeliveriesMutation = graphql(`
  mutation DashRecoverDeliveries($agentId: ID!, $since: DateTime!) {
    recoverDeliveries(agentId: $agentId, since: $since) {
      recovered
    }
  }
`);

export const RequestTaskInputMutation = graphql(`
  mutation DashRequestTaskInput($id: ID!, $input: InputRequestInput!) {
    requestTaskInput(id: $id, input: $input) {
      ...DashTask
    }
  }
`);

export const OAuthAuthorizationQuery = graphql(`
  query DashOAuthAuthorization($request: OAuthAuthorizationRequest!) {
    oauthAuthorization(request: $request) {
      clientId
      appName
      redirectHost
      scopes
      redirectTo
    }
  }
`);

export const DecideOAuthAuthorizationMutation = graphql(`
  mutation DashDecideOAuthAuthorization($request: OAuthAuthorizationRequest!, $allow: Boolean!) {
    decideOAuthAuthorization(request: $request, allow: $allow)
  }
`);
