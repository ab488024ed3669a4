/* eslint-disable */
import * as types from './graphql.js';



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
    "\n  query DashTaskFiles($id: ID!) {\n    task(id: $id) {\n      id\n      inputFiles {\n        id\n        filename\n        mediaType\n        size\n      }\n      resultFiles {\n        id\n        filename\n        mediaType\n        size\n      }\n    }\n  }\n": typeof types.DashTaskFilesDocument,
    "\n  query DashDiscover(\n    $q: String\n    $protocols: [String!]\n    $categories: [String!]\n    $capabilities: [String!]\n    $status: AgentStatus\n    $sort: DiscoverySort\n    $page: Int\n    $perPage: Int\n  ) {\n    discover(\n      q: $q\n      protocols: $protocols\n      categories: $categories\n      capabilities: $capabilities\n      status: $status\n      sort: $sort\n      page: $page\n      perPage: $perPage\n    ) {\n      data {\n        id\n        name\n        slug\n        description\n        tags\n        capabilities\n        trustTier\n        avgRating\n        ratingCount\n        taskCount\n        completedCount\n        failedCount\n        priceCents\n        status\n        iconUrl\n        ownerName\n        verified\n      }\n      total\n      page\n      perPage\n      totalPages\n    }\n  }\n": typeof types.DashDiscoverDocument,
    "\n  query DashDiscoverFilters($status: AgentStatus) {\n    discoverFilters(status: $status) {\n      capabilities {\n        value\n        count\n      }\n      protocols {\n        value\n        count\n      }\n      categories {\n        value\n        count\n      }\n    }\n  }\n": typeof types.DashDiscoverFiltersDocument,
    "\n  query DashAgentDetail($slugOrId: String!) {\n    agent(slugOrId: $slugOrId) {\n      id\n      name\n      slug\n      description\n      longDescription\n      protocols\n      categories\n      capabilities\n      tags\n      endpoint\n      docsUrl\n      authType\n      version\n      status\n      verified\n      healthStatus\n      inputSchema\n      twitterUrl\n      taskCount\n      avgRating\n      createdAt\n      updatedAt\n      priceCents\n      trustTier\n      iconUrl\n      ownerName\n      ratingCount\n      completedCount\n      failedCount\n      daily(days: 14) {\n        day\n        completed\n        failed\n      }\n      stats {\n        successRate\n        successLowerBound\n        p50CompletionMs\n        p95CompletionMs\n        recentTasks\n        ratingCount\n        ratingAverage\n        ratingLowerBound\n      }\n    }\n  }\n": typeof types.DashAgentDetailDocument,
    "\n  query DashMe {\n    me {\n      id\n      email\n      name\n    }\n  }\n": typeof types.DashMeDocument,
    "\n  query DashMyAgentIds {\n    myAgents {\n      id\n    }\n  }\n": typeof types.DashMyAgentIdsDocument,
    "\n  query DashAccount {\n    me {\n      id\n      email\n      emailProven\n      name\n      notificationUrl\n    }\n  }\n": typeof types.DashAccountDocument,
    "\n  mutation DashSimulateConfirm($input: SimulateCardConfirmationInput!) {\n    simulateCardConfirmation(input: $input) {\n      status\n    }\n  }\n": typeof types.DashSimulateConfirmDocument,
    "\n  fragment DashTask on Task {\n    id\n    status\n    title\n    description\n    input\n    priority\n    maxPriceCents\n    agentId\n    agent {\n      id\n      name\n      slug\n      iconUrl\n    }\n    requesterId\n    result\n    error\n    rating\n    expiresAt\n    createdAt\n    updatedAt\n    matchedAt\n    startedAt\n    finishedAt\n    payment {\n      method\n      status\n      amountCents\n      cardBrand\n      cardLast4\n      heldAt\n      settledAt\n    }\n    reviewWindowSeconds\n    inputRequest\n    inputRounds\n    inputHash\n    resultHash\n    receipt\n    reviewEndsAt\n    approvedBy\n    disputeReason\n    disputeStatement\n    disputeContestedAt\n    disputeAnswerBy\n    history {\n      at\n      actor\n      action\n      fromStatus\n      toStatus\n      note\n    }\n    routing {\n      status\n      reason\n    }\n    deliveries {\n      id\n      type\n      status\n      nextAttemptAt\n      attempts {\n        number\n        at\n        statusCode\n        latencyMs\n        error\n      }\n    }\n  }\n": typeof types.DashTaskFragmentDoc,
    "\n  query DashTasks($role: TaskRole, $status: TaskStatus, $cursor: String, $limit: Int) {\n    tasks(role: $role, status: $status, cursor: $cursor, limit: $limit) {\n      data {\n        ...DashTask\n      }\n      nextCursor\n    }\n  }\n": typeof types.DashTasksDocument,
    "\n  query DashTaskById($id: ID!) {\n    task(id: $id) {\n      ...DashTask\n    }\n  }\n": typeof types.DashTaskByIdDocument,
    "\n  subscription DashTaskUpdated($id: ID!) {\n    taskUpdated(id: $id) {\n      ...DashTask\n    }\n  }\n": typeof types.DashTaskUpdatedDocument,
    "\n  mutation DashCancelTask($id: ID!) {\n    cancelTask(id: $id) {\n      ...DashTask\n    }\n  }\n": typeof types.DashCancelTaskDocument,
    "\n  mutation DashProvideTaskInput($id: ID!, $input: JSON!) {\n    provideTaskInput(id: $id, input: $input) {\n      ...DashTask\n    }\n  }\n": typeof types.DashProvideTaskInputDocument,
    "\n  mutation DashApproveTask($id: ID!) {\n    approveTask(id: $id) {\n      ...DashTask\n    }\n  }\n": typeof types.DashApproveTaskDocument,
    "\n  mutation DashRejectTask($id: ID!, $reason: String!) {\n    rejectTask(id: $id, reason: $reason) {\n      ...DashTask\n    }\n  }\n": typeof types.DashRejectTaskDocument,
    "\n  mutation DashRefundTask($id: ID!) {\n    refundTask(id: $id) {\n      ...DashTask\n    }\n  }\n": typeof types.DashRefundTaskDocument,
    "\n  mutation DashContestTask($id: ID!, $statement: String!) {\n    contestTask(id: $id, statement: $statement) {\n      ...DashTask\n    }\n  }\n": typeof types.DashContestTaskDocument,
    "\n  mutation DashRateTask($taskId: ID!, $rating: Int!) {\n    rateTask(taskId: $taskId, rating: $rating) {\n      rating\n      avgRating\n    }\n  }\n": typeof types.DashRateTaskDocument,
    "\n  mutation DashAcceptTask($id: ID!) {\n    acceptTask(id: $id) {\n      ...DashTask\n    }\n  }\n": typeof types.DashAcceptTaskDocument,
    "\n  mutation DashStartTask($id: ID!) {\n    startTask(id: $id) {\n      ...DashTask\n    }\n  }\n": typeof types.DashStartTaskDocument,
    "\n  mutation DashCompleteTask($id: ID!, $result: JSON!) {\n    completeTask(id: $id, result: $result) {\n      ...DashTask\n    }\n  }\n": typeof types.DashCompleteTaskDocument,
    "\n  mutation DashFailTask($id: ID!, $error: String!) {\n    failTask(id: $id, error: $error) {\n      ...DashTask\n    }\n  }\n": typeof types.DashFailTaskDocument,
    "\n  fragment DashOwnAgent on Agent {\n    id\n    name\n    maxConcurrentTasks\n    maxDeliveriesPerSecond\n    slug\n    description\n    longDescription\n    endpoint\n    deliveryMode\n    docsUrl\n    manifestUrl\n    twitterUrl\n    authType\n    version\n    capabilities\n    protocols\n    categories\n    tags\n    priceCents\n    status\n    inputSchema\n    hasWebhookSecret\n    previousWebhookSecretExpiresAt\n    deliveryState\n    endpointFailingSince\n    endpointDisabledAt\n    healthStatus\n    trustTier\n    taskCount\n    avgRating\n    updatedAt\n    cardVerified\n    cardFetchedAt\n    iconUrl\n    provider {\n      organization\n      url\n    }\n    streaming\n    pushNotifications\n  }\n": typeof types.DashOwnAgentFragmentDoc,
    "\n  mutation DashImportAgent($cardUrl: String!) {\n    importAgent(cardUrl: $cardUrl) {\n      ...DashOwnAgent\n    }\n  }\n": typeof types.DashImportAgentDocument,
    "\n  mutation DashRefreshCard($id: ID!) {\n    refreshAgentCard(id: $id) {\n      ...DashOwnAgent\n    }\n  }\n": typeof types.DashRefreshCardDocument,
    "\n  query DashMyAgents {\n    myAgents {\n      ...DashOwnAgent\n    }\n  }\n": typeof types.DashMyAgentsDocument,
    "\n  query DashMyAgent($id: ID!) {\n    myAgent(id: $id) {\n      ...DashOwnAgent\n    }\n  }\n": typeof types.DashMyAgentDocument,
    "\n  mutation DashCreateAgent($input: AgentCreateInput!) {\n    createAgent(input: $input) {\n      ...DashOwnAgent\n    }\n  }\n": typeof types.DashCreateAgentDocument,
    "\n  mutation DashUpdateAgent($id: ID!, $input: AgentUpdateInput!) {\n    updateAgent(id: $id, input: $input) {\n      ...DashOwnAgent\n    }\n  }\n": typeof types.DashUpdateAgentDocument,
    "\n  mutation DashRotateSecret($id: ID!, $graceSeconds: Int) {\n    rotateAgentWebhookSecret(id: $id, graceSeconds: $graceSeconds) {\n      webhookSecret\n      previousSecretExpiresAt\n      message\n    }\n  }\n": typeof types.DashRotateSecretDocument,
    "\n  mutation DashTestWebhook($agentId: ID!) {\n    testAgentWebhook(agentId: $agentId) {\n      ok\n      statusCode\n      latencyMs\n      error\n      bodyStart\n    }\n  }\n": typeof types.DashTestWebhookDocument,
    "\n  mutation DashCheckWebhook($agentId: ID!) {\n    checkAgentWebhook(agentId: $agentId) {\n      verifiesSignatures\n      acceptedValid\n      refusedWrongSignature\n      refusedStaleTimestamp\n    }\n  }\n": typeof types.DashCheckWebhookDocument,
    "\n  mutation DashEnableEndpoint($agentId: ID!) {\n    enableAgentEndpoint(agentId: $agentId) {\n      ...DashOwnAgent\n    }\n  }\n": typeof types.DashEnableEndpointDocument,
    "\n  mutation DashRemoveSecret($id: ID!) {\n    removeAgentWebhookSecret(id: $id) {\n      ...DashOwnAgent\n    }\n  }\n": typeof types.DashRemoveSecretDocument,
    "\n  query DashDeliveries($agentId: ID!, $limit: Int) {\n    agentDeliveries(agentId: $agentId, limit: $limit) {\n      id\n      taskId\n      type\n      task {\n        id\n        title\n        status\n      }\n      status\n      attemptCount\n      nextAttemptAt\n      createdAt\n      attempts {\n        number\n        at\n        statusCode\n        latencyMs\n        error\n      }\n    }\n  }\n": typeof types.DashDeliveriesDocument,
    "\n  mutation DashRedeliver($agentId: ID!, $deliveryId: ID!) {\n    redeliver(agentId: $agentId, deliveryId: $deliveryId) {\n      id\n      status\n      attemptCount\n    }\n  }\n": typeof types.DashRedeliverDocument,
    "\n  query DashNotifications($limit: Int) {\n    me {\n      id\n      notificationUrl\n    }\n    myNotifications(limit: $limit) {\n      id\n      type\n      agentId\n      data\n      status\n      createdAt\n    }\n  }\n": typeof types.DashNotificationsDocument,
    "\n  mutation DashUpdateAccount($input: AccountUpdateInput!) {\n    updateAccount(input: $input) {\n      notificationUrl\n      notificationSecret\n      message\n    }\n  }\n": typeof types.DashUpdateAccountDocument,
    "\n  query DashRequesterRecord($requesterId: ID!) {\n    requesterRecord(requesterId: $requesterId) {\n      tasks\n      reviewed\n      approvalRate\n      rejectionRate\n      disputeRate\n      cancellationRate\n    }\n  }\n": typeof types.DashRequesterRecordDocument,
    "\n  mutation DashRecoverDeliveries($agentId: ID!, $since: DateTime!) {\n    recoverDeliveries(agentId: $agentId, since: $since) {\n      recovered\n    }\n  }\n": typeof types.DashRecoverDeliveriesDocument,
    "\n  mutation DashRequestTaskInput($id: ID!, $input: InputRequestInput!) {\n    requestTaskInput(id: $id, input: $input) {\n      ...DashTask\n    }\n  }\n": typeof types.DashRequestTaskInputDocument,
    "\n  query DashOAuthAuthorization($request: OAuthAuthorizationRequest!) {\n    oauthAuthorization(request: $request) {\n      clientId\n      appName\n      redirectHost\n      scopes\n      redirectTo\n    }\n  }\n": typeof types.DashOAuthAuthorizationDocument,
    "\n  mutation DashDecideOAuthAuthorization($request: OAuthAuthorizationRequest!, $allow: Boolean!) {\n    decideOAuthAuthorization(request: $request, allow: $allow)\n  }\n": typeof types.DashDecideOAuthAuthorizationDocument,
    "\n  query DashPaymentSettings {\n    paymentSettings {\n      processor\n      publishableKey\n      testMode\n    }\n  }\n": typeof types.DashPaymentSettingsDocument,
    "\n  query DashHoldConfirmation($taskId: ID!) {\n    taskHoldConfirmation(taskId: $taskId) {\n      clientSecret\n      amountCents\n    }\n  }\n": typeof types.DashHoldConfirmationDocument,
    "\n  query DashBillingPage {\n    billing {\n      card {\n        brand\n        last4\n      }\n      credits {\n        agentId\n        balance\n        agent {\n          id\n          name\n          slug\n          priceCents\n        }\n      }\n      spentThisMonthCents\n      payments {\n        taskId\n        taskTitle\n        agentName\n        agentSlug\n        method\n        status\n        amountCents\n        cardBrand\n        cardLast4\n        heldAt\n        settledAt\n        createdAt\n        receiptUrl\n      }\n    }\n  }\n": typeof types.DashBillingPageDocument,
    "\n  query DashPayouts {\n    billing {\n      payouts {\n        connected\n        onboarding\n        owedCents\n        transferredCents\n        earnings {\n          taskId\n          taskTitle\n          agentName\n          amountCents\n          feeCents\n          netCents\n          capturedAt\n          transfer\n          transferredAt\n        }\n      }\n    }\n  }\n": typeof types.DashPayoutsDocument,
    "\n  mutation DashCreateSetupIntent {\n    createSetupIntent {\n      clientSecret\n    }\n  }\n": typeof types.DashCreateSetupIntentDocument,
    "\n  mutation DashSetDefaultCard($input: SetDefaultPaymentMethodInput!) {\n    setDefaultPaymentMethod(input: $input) {\n      card {\n        brand\n        last4\n      }\n    }\n  }\n": typeof types.DashSetDefaultCardDocument,
    "\n  mutation DashRemoveCard {\n    removePaymentMethod {\n      card {\n        brand\n        last4\n      }\n    }\n  }\n": typeof types.DashRemoveCardDocument,
    "\n  mutation DashBuyCredits($input: BuyCreditsInput!, $idempotencyKey: String) {\n    buyCredits(input: $input, idempotencyKey: $idempotencyKey) {\n      agentId\n      quantity\n      amountCents\n      balance\n    }\n  }\n": typeof types.DashBuyCreditsDocument,
    "\n  mutation DashStartPayoutOnboarding {\n    startPayoutOnboarding {\n      url\n    }\n  }\n": typeof types.DashStartPayoutOnboardingDocument,
    "\n  query DashBuyForAgent($slugOrId: String!) {\n    agent(slugOrId: $slugOrId) {\n      id\n      name\n      slug\n      priceCents\n    }\n  }\n": typeof types.DashBuyForAgentDocument,
};
const documents: Documents = {
    "\n  query DashTaskFiles($id: ID!) {\n    task(id: $id) {\n      id\n      inputFiles {\n        id\n        filename\n        mediaType\n        size\n      }\n      resultFiles {\n        id\n        filename\n        mediaType\n        size\n      }\n    }\n  }\n": types.DashTaskFilesDocument,
    "\n  query DashDiscover(\n    $q: String\n    $protocols: [String!]\n    $categories: [String!]\n    $capabilities: [String!]\n    $status: AgentStatus\n    $sort: DiscoverySort\n    $page: Int\n    $perPage: Int\n  ) {\n    discover(\n      q: $q\n      protocols: $protocols\n      categories: $categories\n      capabilities: $capabilities\n      status: $status\n      sort: $sort\n      page: $page\n      perPage: $perPage\n    ) {\n      data {\n        id\n        name\n        slug\n        description\n        tags\n        capabilities\n        trustTier\n        avgRating\n        ratingCount\n        taskCount\n        completedCount\n        failedCount\n        priceCents\n        status\n        iconUrl\n        ownerName\n        verified\n      }\n      total\n      page\n      perPage\n      totalPages\n    }\n  }\n": types.DashDiscoverDocument,
    "\n  query DashDiscoverFilters($status: AgentStatus) {\n    discoverFilters(status: $status) {\n      capabilities {\n        value\n        count\n      }\n      protocols {\n        value\n        count\n      }\n      categories {\n        value\n        count\n      }\n    }\n  }\n": types.DashDiscoverFiltersDocument,
    "\n  query DashAgentDetail($slugOrId: String!) {\n    agent(slugOrId: $slugOrId) {\n      id\n      name\n      slug\n      description\n      longDescription\n      protocols\n      categories\n      capabilities\n      tags\n      endpoint\n      docsUrl\n      authType\n      version\n      status\n      verified\n      healthStatus\n      inputSchema\n      twitterUrl\n      taskCount\n      avgRating\n      createdAt\n      updatedAt\n      priceCents\n      trustTier\n      iconUrl\n      ownerName\n      ratingCount\n      completedCount\n      failedCount\n      daily(days: 14) {\n        day\n        completed\n        failed\n      }\n      stats {\n        successRate\n        successLowerBound\n        p50CompletionMs\n        p95CompletionMs\n        recentTasks\n        ratingCount\n        ratingAverage\n        ratingLowerBound\n      }\n    }\n  }\n": types.DashAgentDetailDocument,
    "\n  query DashMe {\n    me {\n      id\n      email\n      name\n    }\n  }\n": types.DashMeDocument,
    "\n  query DashMyAgentIds {\n    myAgents {\n      id\n    }\n  }\n": types.DashMyAgentIdsDocument,
    "\n  query DashAccount {\n    me {\n      id\n      email\n      emailProven\n      name\n      notificationUrl\n    }\n  }\n": types.DashAccountDocument,
    "\n  mutation DashSimulateConfirm($input: SimulateCardConfirmationInput!) {\n    simulateCardConfirmation(input: $input) {\n      status\n    }\n  }\n": types.DashSimulateConfirmDocument,
    "\n  fragment DashTask on Task {\n    id\n    status\n    title\n    description\n    input\n    priority\n    maxPriceCents\n    agentId\n    agent {\n      id\n      name\n      slug\n      iconUrl\n    }\n    requesterId\n    result\n    error\n    rating\n    expiresAt\n    createdAt\n    updatedAt\n    matchedAt\n    startedAt\n    finishedAt\n    payment {\n      method\n      status\n      amountCents\n      cardBrand\n      cardLast4\n      heldAt\n      settledAt\n    }\n    reviewWindowSeconds\n    inputRequest\n    inputRounds\n    inputHash\n    resultHash\n    receipt\n    reviewEndsAt\n    approvedBy\n    disputeReason\n    disputeStatement\n    disputeContestedAt\n    disputeAnswerBy\n    history {\n      at\n      actor\n      action\n      fromStatus\n      toStatus\n      note\n    }\n    routing {\n      status\n      reason\n    }\n    deliveries {\n      id\n      type\n      status\n      nextAttemptAt\n      attempts {\n        number\n        at\n        statusCode\n        latencyMs\n        error\n      }\n    }\n  }\n": types.DashTaskFragmentDoc,
    "\n  query DashTasks($role: TaskRole, $status: TaskStatus, $cursor: String, $limit: Int) {\n    tasks(role: $role, status: $status, cursor: $cursor, limit: $limit) {\n      data {\n        ...DashTask\n      }\n      nextCursor\n    }\n  }\n": types.DashTasksDocument,
    "\n  query DashTaskById($id: ID!) {\n    task(id: $id) {\n      ...DashTask\n    }\n  }\n": types.DashTaskByIdDocument,
    "\n  subscription DashTaskUpdated($id: ID!) {\n    taskUpdated(id: $id) {\n      ...DashTask\n    }\n  }\n": types.DashTaskUpdatedDocument,
    "\n  mutation DashCancelTask($id: ID!) {\n    cancelTask(id: $id) {\n      ...DashTask\n    }\n  }\n": types.DashCancelTaskDocument,
    "\n  mutation DashProvideTaskInput($id: ID!, $input: JSON!) {\n    provideTaskInput(id: $id, input: $input) {\n      ...DashTask\n    }\n  }\n": types.DashProvideTaskInputDocument,
    "\n  mutation DashApproveTask($id: ID!) {\n    approveTask(id: $id) {\n      ...DashTask\n    }\n  }\n": types.DashApproveTaskDocument,
    "\n  mutation DashRejectTask($id: ID!, $reason: String!) {\n    rejectTask(id: $id, reason: $reason) {\n      ...DashTask\n    }\n  }\n": types.DashRejectTaskDocument,
    "\n  mutation DashRefundTask($id: ID!) {\n    refundTask(id: $id) {\n      ...DashTask\n    }\n  }\n": types.DashRefundTaskDocument,
    "\n  mutation DashContestTask($id: ID!, $statement: String!) {\n    contestTask(id: $id, statement: $statement) {\n      ...DashTask\n    }\n  }\n": types.DashContestTaskDocument,
    "\n  mutation DashRateTask($taskId: ID!, $rating: Int!) {\n    rateTask(taskId: $taskId, rating: $rating) {\n      rating\n      avgRating\n    }\n  }\n": types.DashRateTaskDocument,
    "\n  mutation DashAcceptTask($id: ID!) {\n    acceptTask(id: $id) {\n      ...DashTask\n    }\n  }\n": types.DashAcceptTaskDocument,
    "\n  mutation DashStartTask($id: ID!) {\n    startTask(id: $id) {\n      ...DashTask\n    }\n  }\n": types.DashStartTaskDocument,
    "\n  mutation DashCompleteTask($id: ID!, $result: JSON!) {\n    completeTask(id: $id, result: $result) {\n      ...DashTask\n    }\n  }\n": types.DashCompleteTaskDocument,
    "\n  mutation DashFailTask($id: ID!, $error: String!) {\n    failTask(id: $id, error: $error) {\n      ...DashTask\n    }\n  }\n": types.DashFailTaskDocument,
    "\n  fragment DashOwnAgent on Agent {\n    id\n    name\n    maxConcurrentTasks\n    maxDeliveriesPerSecond\n    slug\n    description\n    longDescription\n    endpoint\n    deliveryMode\n    docsUrl\n    manifestUrl\n    twitterUrl\n    authType\n    version\n    capabilities\n    protocols\n    categories\n    tags\n    priceCents\n    status\n    inputSchema\n    hasWebhookSecret\n    previousWebhookSecretExpiresAt\n    deliveryState\n    endpointFailingSince\n    endpointDisabledAt\n    healthStatus\n    trustTier\n    taskCount\n    avgRating\n    updatedAt\n    cardVerified\n    cardFetchedAt\n    iconUrl\n    provider {\n      organization\n      url\n    }\n    streaming\n    pushNotifications\n  }\n": types.DashOwnAgentFragmentDoc,
    "\n  mutation DashImportAgent($cardUrl: String!) {\n    importAgent(cardUrl: $cardUrl) {\n      ...DashOwnAgent\n    }\n  }\n": types.DashImportAgentDocument,
    "\n  mutation DashRefreshCard($id: ID!) {\n    refreshAgentCard(id: $id) {\n      ...DashOwnAgent\n    }\n  }\n": types.DashRefreshCardDocument,
    "\n  query DashMyAgents {\n    myAgents {\n      ...DashOwnAgent\n    }\n  }\n": types.DashMyAgentsDocument,
    "\n  query DashMyAgent($id: ID!) {\n    myAgent(id: $id) {\n      ...DashOwnAgent\n    }\n  }\n": types.DashMyAgentDocument,
    "\n  mutation DashCreateAgent($input: AgentCreateInput!) {\n    createAgent(input: $input) {\n      ...DashOwnAgent\n    }\n  }\n": types.DashCreateAgentDocument,
    "\n  mutation DashUpdateAgent($id: ID!, $input: AgentUpdateInput!) {\n    updateAgent(id: $id, input: $input) {\n      ...DashOwnAgent\n    }\n  }\n": types.DashUpdateAgentDocument,
    "\n  mutation DashRotateSecret($id: ID!, $graceSeconds: Int) {\n    rotateAgentWebhookSecret(id: $id, graceSeconds: $graceSeconds) {\n      webhookSecret\n      previousSecretExpiresAt\n      message\n    }\n  }\n": types.DashRotateSecretDocument,
    "\n  mutation DashTestWebhook($agentId: ID!) {\n    testAgentWebhook(agentId: $agentId) {\n      ok\n      statusCode\n      latencyMs\n      error\n      bodyStart\n    }\n  }\n": types.DashTestWebhookDocument,
    "\n  mutation DashCheckWebhook($agentId: ID!) {\n    checkAgentWebhook(agentId: $agentId) {\n      verifiesSignatures\n      acceptedValid\n      refusedWrongSignature\n      refusedStaleTimestamp\n    }\n  }\n": types.DashCheckWebhookDocument,
    "\n  mutation DashEnableEndpoint($agentId: ID!) {\n    enableAgentEndpoint(agentId: $agentId) {\n      ...DashOwnAgent\n    }\n  }\n": types.DashEnableEndpointDocument,
    "\n  mutation DashRemoveSecret($id: ID!) {\n    removeAgentWebhookSecret(id: $id) {\n      ...DashOwnAgent\n    }\n  }\n": types.DashRemoveSecretDocument,
    "\n  query DashDeliveries($agentId: ID!, $limit: Int) {\n    agentDeliveries(agentId: $agentId, limit: $limit) {\n      id\n      taskId\n      type\n      task {\n        id\n        title\n        status\n      }\n      status\n      attemptCount\n      nextAttemptAt\n      createdAt\n      attempts {\n        number\n        at\n        statusCode\n        latencyMs\n        error\n      }\n    }\n  }\n": types.DashDeliveriesDocument,
    "\n  mutation DashRedeliver($agentId: ID!, $deliveryId: ID!) {\n    redeliver(agentId: $agentId, deliveryId: $deliveryId) {\n      id\n      status\n      attemptCount\n    }\n  }\n": types.DashRedeliverDocument,
    "\n  query DashNotifications($limit: Int) {\n    me {\n      id\n      notificationUrl\n    }\n    myNotifications(limit: $limit) {\n      id\n      type\n      agentId\n      data\n      status\n      createdAt\n    }\n  }\n": types.DashNotificationsDocument,
    "\n  mutation DashUpdateAccount($input: AccountUpdateInput!) {\n    updateAccount(input: $input) {\n      notificationUrl\n      notificationSecret\n      message\n    }\n  }\n": types.DashUpdateAccountDocument,
    "\n  query DashRequesterRecord($requesterId: ID!) {\n    requesterRecord(requesterId: $requesterId) {\n      tasks\n      reviewed\n      approvalRate\n      rejectionRate\n      disputeRate\n      cancellationRate\n    }\n  }\n": types.DashRequesterRecordDocument,
    "\n  mutation DashRecoverDeliveries($agentId: ID!, $since: DateTime!) {\n    recoverDeliveries(agentId: $agentId, since: $since) {\n      recovered\n    }\n  }\n": types.DashRecoverDeliveriesDocument,
    "\n  mutation DashRequestTaskInput($id: ID!, $input: InputRequestInput!) {\n    requestTaskInput(id: $id, input: $input) {\n      ...DashTask\n    }\n  }\n": types.DashRequestTaskInputDocument,
    "\n  query DashOAuthAuthorization($request: OAuthAuthorizationRequest!) {\n    oauthAuthorization(request: $request) {\n      clientId\n      appName\n      redirectHost\n      scopes\n      redirectTo\n    }\n  }\n": types.DashOAuthAuthorizationDocument,
    "\n  mutation DashDecideOAuthAuthorization($request: OAuthAuthorizationRequest!, $allow: Boolean!) {\n    decideOAuthAuthorization(request: $request, allow: $allow)\n  }\n": types.DashDecideOAuthAuthorizationDocument,
    "\n  query DashPaymentSettings {\n    paymentSettings {\n      processor\n      publishableKey\n      testMode\n    }\n  }\n": types.DashPaymentSettingsDocument,
    "\n  query DashHoldConfirmation($taskId: ID!) {\n    taskHoldConfirmation(taskId: $taskId) {\n      clientSecret\n      amountCents\n    }\n  }\n": types.DashHoldConfirmationDocument,
    "\n  query DashBillingPage {\n    billing {\n      card {\n        brand\n        last4\n      }\n      credits {\n        agentId\n        balance\n        agent {\n          id\n          name\n          slug\n          priceCents\n        }\n      }\n      spentThisMonthCents\n      payments {\n        taskId\n        taskTitle\n        agentName\n        agentSlug\n        method\n        status\n        amountCents\n        cardBrand\n        cardLast4\n        heldAt\n        settledAt\n        createdAt\n        receiptUrl\n      }\n    }\n  }\n": types.DashBillingPageDocument,
    "\n  query DashPayouts {\n    billing {\n      payouts {\n        connected\n        onboarding\n        owedCents\n        transferredCents\n        earnings {\n          taskId\n          taskTitle\n          agentName\n          amountCents\n          feeCents\n          netCents\n          capturedAt\n          transfer\n          transferredAt\n        }\n      }\n    }\n  }\n": types.DashPayoutsDocument,
    "\n  mutation DashCreateSetupIntent {\n    createSetupIntent {\n      clientSecret\n    }\n  }\n": types.DashCreateSetupIntentDocument,
    "\n  mutation DashSetDefaultCard($input: SetDefaultPaymentMethodInput!) {\n    setDefaultPaymentMethod(input: $input) {\n      card {\n        brand\n        last4\n      }\n    }\n  }\n": types.DashSetDefaultCardDocument,
    "\n  mutation DashRemoveCard {\n    removePaymentMethod {\n      card {\n        brand\n        last4\n      }\n    }\n  }\n": types.DashRemoveCardDocument,
    "\n  mutation DashBuyCredits($input: BuyCreditsInput!, $idempotencyKey: String) {\n    buyCredits(input: $input, idempotencyKey: $idempotencyKey) {\n      agentId\n      quantity\n      amountCents\n      balance\n    }\n  }\n": types.DashBuyCreditsDocument,
    "\n  mutation DashStartPayoutOnboarding {\n    startPayoutOnboarding {\n      url\n    }\n  }\n": types.DashStartPayoutOnboardingDocument,
    "\n  query DashBuyForAgent($slugOrId: String!) {\n    agent(slugOrId: $slugOrId) {\n      id\n      name\n      slug\n      priceCents\n    }\n  }\n": types.DashBuyForAgentDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashTaskFiles($id: ID!) {\n    task(id: $id) {\n      id\n      inputFiles {\n        id\n        filename\n        mediaType\n        size\n      }\n      resultFiles {\n        id\n        filename\n        mediaType\n        size\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashTaskFilesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashDiscover(\n    $q: String\n    $protocols: [String!]\n    $categories: [String!]\n    $capabilities: [String!]\n    $status: AgentStatus\n    $sort: DiscoverySort\n    $page: Int\n    $perPage: Int\n  ) {\n    discover(\n      q: $q\n      protocols: $protocols\n      categories: $categories\n      capabilities: $capabilities\n      status: $status\n      sort: $sort\n      page: $page\n      perPage: $perPage\n    ) {\n      data {\n        id\n        name\n        slug\n        description\n        tags\n        capabilities\n        trustTier\n        avgRating\n        ratingCount\n        taskCount\n        completedCount\n        failedCount\n        priceCents\n        status\n        iconUrl\n        ownerName\n        verified\n      }\n      total\n      page\n      perPage\n      totalPages\n    }\n  }\n"): typeof import('./graphql.js').DashDiscoverDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashDiscoverFilters($status: AgentStatus) {\n    discoverFilters(status: $status) {\n      capabilities {\n        value\n        count\n      }\n      protocols {\n        value\n        count\n      }\n      categories {\n        value\n        count\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashDiscoverFiltersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashAgentDetail($slugOrId: String!) {\n    agent(slugOrId: $slugOrId) {\n      id\n      name\n      slug\n      description\n      longDescription\n      protocols\n      categories\n      capabilities\n      tags\n      endpoint\n      docsUrl\n      authType\n      version\n      status\n      verified\n      healthStatus\n      inputSchema\n      twitterUrl\n      taskCount\n      avgRating\n      createdAt\n      updatedAt\n      priceCents\n      trustTier\n      iconUrl\n      ownerName\n      ratingCount\n      completedCount\n      failedCount\n      daily(days: 14) {\n        day\n        completed\n        failed\n      }\n      stats {\n        successRate\n        successLowerBound\n        p50CompletionMs\n        p95CompletionMs\n        recentTasks\n        ratingCount\n        ratingAverage\n        ratingLowerBound\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashAgentDetailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashMe {\n    me {\n      id\n      email\n      name\n    }\n  }\n"): typeof import('./graphql.js').DashMeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashMyAgentIds {\n    myAgents {\n      id\n    }\n  }\n"): typeof import('./graphql.js').DashMyAgentIdsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashAccount {\n    me {\n      id\n      email\n      emailProven\n      name\n      notificationUrl\n    }\n  }\n"): typeof import('./graphql.js').DashAccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashSimulateConfirm($input: SimulateCardConfirmationInput!) {\n    simulateCardConfirmation(input: $input) {\n      status\n    }\n  }\n"): typeof import('./graphql.js').DashSimulateConfirmDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DashTask on Task {\n    id\n    status\n    title\n    description\n    input\n    priority\n    maxPriceCents\n    agentId\n    agent {\n      id\n      name\n      slug\n      iconUrl\n    }\n    requesterId\n    result\n    error\n    rating\n    expiresAt\n    createdAt\n    updatedAt\n    matchedAt\n    startedAt\n    finishedAt\n    payment {\n      method\n      status\n      amountCents\n      cardBrand\n      cardLast4\n      heldAt\n      settledAt\n    }\n    reviewWindowSeconds\n    inputRequest\n    inputRounds\n    inputHash\n    resultHash\n    receipt\n    reviewEndsAt\n    approvedBy\n    disputeReason\n    disputeStatement\n    disputeContestedAt\n    disputeAnswerBy\n    history {\n      at\n      actor\n      action\n      fromStatus\n      toStatus\n      note\n    }\n    routing {\n      status\n      reason\n    }\n    deliveries {\n      id\n      type\n      status\n      nextAttemptAt\n      attempts {\n        number\n        at\n        statusCode\n        latencyMs\n        error\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashTaskFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashTasks($role: TaskRole, $status: TaskStatus, $cursor: String, $limit: Int) {\n    tasks(role: $role, status: $status, cursor: $cursor, limit: $limit) {\n      data {\n        ...DashTask\n      }\n      nextCursor\n    }\n  }\n"): typeof import('./graphql.js').DashTasksDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashTaskById($id: ID!) {\n    task(id: $id) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashTaskByIdDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashTaskUpdated($id: ID!) {\n    taskUpdated(id: $id) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashTaskUpdatedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashCancelTask($id: ID!) {\n    cancelTask(id: $id) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashCancelTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashProvideTaskInput($id: ID!, $input: JSON!) {\n    provideTaskInput(id: $id, input: $input) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashProvideTaskInputDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashApproveTask($id: ID!) {\n    approveTask(id: $id) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashApproveTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashRejectTask($id: ID!, $reason: String!) {\n    rejectTask(id: $id, reason: $reason) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashRejectTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashRefundTask($id: ID!) {\n    refundTask(id: $id) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashRefundTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashContestTask($id: ID!, $statement: String!) {\n    contestTask(id: $id, statement: $statement) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashContestTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashRateTask($taskId: ID!, $rating: Int!) {\n    rateTask(taskId: $taskId, rating: $rating) {\n      rating\n      avgRating\n    }\n  }\n"): typeof import('./graphql.js').DashRateTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashAcceptTask($id: ID!) {\n    acceptTask(id: $id) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashAcceptTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashStartTask($id: ID!) {\n    startTask(id: $id) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashStartTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashCompleteTask($id: ID!, $result: JSON!) {\n    completeTask(id: $id, result: $result) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashCompleteTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashFailTask($id: ID!, $error: String!) {\n    failTask(id: $id, error: $error) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashFailTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DashOwnAgent on Agent {\n    id\n    name\n    maxConcurrentTasks\n    maxDeliveriesPerSecond\n    slug\n    description\n    longDescription\n    endpoint\n    deliveryMode\n    docsUrl\n    manifestUrl\n    twitterUrl\n    authType\n    version\n    capabilities\n    protocols\n    categories\n    tags\n    priceCents\n    status\n    inputSchema\n    hasWebhookSecret\n    previousWebhookSecretExpiresAt\n    deliveryState\n    endpointFailingSince\n    endpointDisabledAt\n    healthStatus\n    trustTier\n    taskCount\n    avgRating\n    updatedAt\n    cardVerified\n    cardFetchedAt\n    iconUrl\n    provider {\n      organization\n      url\n    }\n    streaming\n    pushNotifications\n  }\n"): typeof import('./graphql.js').DashOwnAgentFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashImportAgent($cardUrl: String!) {\n    importAgent(cardUrl: $cardUrl) {\n      ...DashOwnAgent\n    }\n  }\n"): typeof import('./graphql.js').DashImportAgentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashRefreshCard($id: ID!) {\n    refreshAgentCard(id: $id) {\n      ...DashOwnAgent\n    }\n  }\n"): typeof import('./graphql.js').DashRefreshCardDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashMyAgents {\n    myAgents {\n      ...DashOwnAgent\n    }\n  }\n"): typeof import('./graphql.js').DashMyAgentsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashMyAgent($id: ID!) {\n    myAgent(id: $id) {\n      ...DashOwnAgent\n    }\n  }\n"): typeof import('./graphql.js').DashMyAgentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashCreateAgent($input: AgentCreateInput!) {\n    createAgent(input: $input) {\n      ...DashOwnAgent\n    }\n  }\n"): typeof import('./graphql.js').DashCreateAgentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashUpdateAgent($id: ID!, $input: AgentUpdateInput!) {\n    updateAgent(id: $id, input: $input) {\n      ...DashOwnAgent\n    }\n  }\n"): typeof import('./graphql.js').DashUpdateAgentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashRotateSecret($id: ID!, $graceSeconds: Int) {\n    rotateAgentWebhookSecret(id: $id, graceSeconds: $graceSeconds) {\n      webhookSecret\n      previousSecretExpiresAt\n      message\n    }\n  }\n"): typeof import('./graphql.js').DashRotateSecretDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashTestWebhook($agentId: ID!) {\n    testAgentWebhook(agentId: $agentId) {\n      ok\n      statusCode\n      latencyMs\n      error\n      bodyStart\n    }\n  }\n"): typeof import('./graphql.js').DashTestWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashCheckWebhook($agentId: ID!) {\n    checkAgentWebhook(agentId: $agentId) {\n      verifiesSignatures\n      acceptedValid\n      refusedWrongSignature\n      refusedStaleTimestamp\n    }\n  }\n"): typeof import('./graphql.js').DashCheckWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashEnableEndpoint($agentId: ID!) {\n    enableAgentEndpoint(agentId: $agentId) {\n      ...DashOwnAgent\n    }\n  }\n"): typeof import('./graphql.js').DashEnableEndpointDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashRemoveSecret($id: ID!) {\n    removeAgentWebhookSecret(id: $id) {\n      ...DashOwnAgent\n    }\n  }\n"): typeof import('./graphql.js').DashRemoveSecretDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashDeliveries($agentId: ID!, $limit: Int) {\n    agentDeliveries(agentId: $agentId, limit: $limit) {\n      id\n      taskId\n      type\n      task {\n        id\n        title\n        status\n      }\n      status\n      attemptCount\n      nextAttemptAt\n      createdAt\n      attempts {\n        number\n        at\n        statusCode\n        latencyMs\n        error\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashDeliveriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashRedeliver($agentId: ID!, $deliveryId: ID!) {\n    redeliver(agentId: $agentId, deliveryId: $deliveryId) {\n      id\n      status\n      attemptCount\n    }\n  }\n"): typeof import('./graphql.js').DashRedeliverDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashNotifications($limit: Int) {\n    me {\n      id\n      notificationUrl\n    }\n    myNotifications(limit: $limit) {\n      id\n      type\n      agentId\n      data\n      status\n      createdAt\n    }\n  }\n"): typeof import('./graphql.js').DashNotificationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashUpdateAccount($input: AccountUpdateInput!) {\n    updateAccount(input: $input) {\n      notificationUrl\n      notificationSecret\n      message\n    }\n  }\n"): typeof import('./graphql.js').DashUpdateAccountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashRequesterRecord($requesterId: ID!) {\n    requesterRecord(requesterId: $requesterId) {\n      tasks\n      reviewed\n      approvalRate\n      rejectionRate\n      disputeRate\n      cancellationRate\n    }\n  }\n"): typeof import('./graphql.js').DashRequesterRecordDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashRecoverDeliveries($agentId: ID!, $since: DateTime!) {\n    recoverDeliveries(agentId: $agentId, since: $since) {\n      recovered\n    }\n  }\n"): typeof import('./graphql.js').DashRecoverDeliveriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashRequestTaskInput($id: ID!, $input: InputRequestInput!) {\n    requestTaskInput(id: $id, input: $input) {\n      ...DashTask\n    }\n  }\n"): typeof import('./graphql.js').DashRequestTaskInputDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashOAuthAuthorization($request: OAuthAuthorizationRequest!) {\n    oauthAuthorization(request: $request) {\n      clientId\n      appName\n      redirectHost\n      scopes\n      redirectTo\n    }\n  }\n"): typeof import('./graphql.js').DashOAuthAuthorizationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashDecideOAuthAuthorization($request: OAuthAuthorizationRequest!, $allow: Boolean!) {\n    decideOAuthAuthorization(request: $request, allow: $allow)\n  }\n"): typeof import('./graphql.js').DashDecideOAuthAuthorizationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashPaymentSettings {\n    paymentSettings {\n      processor\n      publishableKey\n      testMode\n    }\n  }\n"): typeof import('./graphql.js').DashPaymentSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashHoldConfirmation($taskId: ID!) {\n    taskHoldConfirmation(taskId: $taskId) {\n      clientSecret\n      amountCents\n    }\n  }\n"): typeof import('./graphql.js').DashHoldConfirmationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashBillingPage {\n    billing {\n      card {\n        brand\n        last4\n      }\n      credits {\n        agentId\n        balance\n        agent {\n          id\n          name\n          slug\n          priceCents\n        }\n      }\n      spentThisMonthCents\n      payments {\n        taskId\n        taskTitle\n        agentName\n        agentSlug\n        method\n        status\n        amountCents\n        cardBrand\n        cardLast4\n        heldAt\n        settledAt\n        createdAt\n        receiptUrl\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashBillingPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashPayouts {\n    billing {\n      payouts {\n        connected\n        onboarding\n        owedCents\n        transferredCents\n        earnings {\n          taskId\n          taskTitle\n          agentName\n          amountCents\n          feeCents\n          netCents\n          capturedAt\n          transfer\n          transferredAt\n        }\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashPayoutsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashCreateSetupIntent {\n    createSetupIntent {\n      clientSecret\n    }\n  }\n"): typeof import('./graphql.js').DashCreateSetupIntentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashSetDefaultCard($input: SetDefaultPaymentMethodInput!) {\n    setDefaultPaymentMethod(input: $input) {\n      card {\n        brand\n        last4\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashSetDefaultCardDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashRemoveCard {\n    removePaymentMethod {\n      card {\n        brand\n        last4\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashRemoveCardDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashBuyCredits($input: BuyCreditsInput!, $idempotencyKey: String) {\n    buyCredits(input: $input, idempotencyKey: $idempotencyKey) {\n      agentId\n      quantity\n      amountCents\n      balance\n    }\n  }\n"): typeof import('./graphql.js').DashBuyCreditsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashStartPayoutOnboarding {\n    startPayoutOnboarding {\n      url\n    }\n  }\n"): typeof import('./graphql.js').DashStartPayoutOnboardingDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashBuyForAgent($slugOrId: String!) {\n    agent(slugOrId: $slugOrId) {\n      id\n      name\n      slug\n      priceCents\n    }\n  }\n"): typeof import('./graphql.js').DashBuyForAgentDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
