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
    "\n      mutation RestImportAgent($cardUrl: String!) {\n        importAgent(cardUrl: $cardUrl) {\n          ...AgentOwnerFields\n          card\n        }\n      }\n    ": typeof types.RestImportAgentDocument,
    "\n      mutation RestRefreshAgentCard($id: ID!) {\n        refreshAgentCard(id: $id) {\n          ...AgentOwnerFields\n          card\n        }\n      }\n    ": typeof types.RestRefreshAgentCardDocument,
    "\n  fragment AgentOwnerFields on Agent {\n    id\n    name\n    slug\n    description\n    longDescription\n    endpoint\n    deliveryMode\n    protocols\n    categories\n    capabilities\n    tags\n    docsUrl\n    manifestUrl\n    authType\n    version\n    inputSchema\n    twitterUrl\n    status\n    verified\n    healthStatus\n    trustScore\n    trustTier\n    hasWebhookSecret\n    previousWebhookSecretExpiresAt\n    signingPublicKey\n    previousSigningPublicKey\n    previousSigningKeyExpiresAt\n    deliveryState\n    endpointFailingSince\n    endpointDisabledAt\n    maxConcurrentTasks\n    maxDeliveriesPerSecond\n    priceCents\n    taskCount\n    avgRating\n    cardVerified\n    cardFetchedAt\n    iconUrl\n    provider {\n      organization\n      url\n    }\n    streaming\n    pushNotifications\n    createdAt\n    updatedAt\n  }\n": typeof types.AgentOwnerFieldsFragmentDoc,
    "\n      query RestListAgents {\n        myAgents {\n          ...AgentOwnerFields\n        }\n      }\n    ": typeof types.RestListAgentsDocument,
    "\n      mutation RestCreateAgent($input: AgentCreateInput!) {\n        createAgent(input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    ": typeof types.RestCreateAgentDocument,
    "\n      query RestGetAgent($id: ID!) {\n        myAgent(id: $id) {\n          ...AgentOwnerFields\n        }\n      }\n    ": typeof types.RestGetAgentDocument,
    "\n      mutation RestUpdateAgent($id: ID!, $input: AgentUpdateInput!) {\n        updateAgent(id: $id, input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    ": typeof types.RestUpdateAgentDocument,
    "\n      mutation RestDeleteAgent($id: ID!) {\n        deleteAgent(id: $id) {\n          message\n        }\n      }\n    ": typeof types.RestDeleteAgentDocument,
    "\n      mutation RestRotateWebhookSecret($id: ID!, $graceSeconds: Int) {\n        rotateAgentWebhookSecret(id: $id, graceSeconds: $graceSeconds) {\n          webhookSecret\n          previousSecretExpiresAt\n          message\n        }\n      }\n    ": typeof types.RestRotateWebhookSecretDocument,
    "\n      mutation RestRotateSigningKey($id: ID!, $graceSeconds: Int) {\n        rotateAgentSigningKey(id: $id, graceSeconds: $graceSeconds) {\n          signingPublicKey\n          previousSigningPublicKey\n          previousKeyExpiresAt\n        }\n      }\n    ": typeof types.RestRotateSigningKeyDocument,
    "\n      mutation RestRemoveWebhookSecret($id: ID!) {\n        removeAgentWebhookSecret(id: $id) {\n          id\n          hasWebhookSecret\n        }\n      }\n    ": typeof types.RestRemoveWebhookSecretDocument,
    "\n      mutation RestCreateApiKey($name: String, $scopes: [String!], $expiresAt: DateTime) {\n        createApiKey(name: $name, scopes: $scopes, expiresAt: $expiresAt) {\n          id\n          name\n          prefix\n          scopes\n          expiresAt\n          apiKey\n        }\n      }\n    ": typeof types.RestCreateApiKeyDocument,
    "\n      query RestApiKeys {\n        apiKeys {\n          id\n          name\n          prefix\n          scopes\n          createdAt\n          lastUsedAt\n          expiresAt\n          revokedAt\n        }\n      }\n    ": typeof types.RestApiKeysDocument,
    "\n      mutation RestRevokeApiKey($id: ID!) {\n        revokeApiKey(id: $id) {\n          id\n          revokedAt\n        }\n      }\n    ": typeof types.RestRevokeApiKeyDocument,
    "\n  fragment BillingFields on Billing {\n    card {\n      brand\n      last4\n    }\n    credits {\n      agentId\n      balance\n      agent {\n        name\n        slug\n        priceCents\n      }\n    }\n    payouts {\n      connected\n      owedCents\n    }\n  }\n": typeof types.BillingFieldsFragmentDoc,
    "\n      query RestBilling {\n        billing {\n          ...BillingFields\n        }\n      }\n    ": typeof types.RestBillingDocument,
    "\n      mutation RestCreateSetupIntent {\n        createSetupIntent {\n          clientSecret\n        }\n      }\n    ": typeof types.RestCreateSetupIntentDocument,
    "\n      mutation RestSetDefaultPaymentMethod($input: SetDefaultPaymentMethodInput!) {\n        setDefaultPaymentMethod(input: $input) {\n          ...BillingFields\n        }\n      }\n    ": typeof types.RestSetDefaultPaymentMethodDocument,
    "\n      mutation RestStartPayoutOnboarding {\n        startPayoutOnboarding {\n          url\n        }\n      }\n    ": typeof types.RestStartPayoutOnboardingDocument,
    "\n      mutation RestBuyCredits($input: BuyCreditsInput!, $idempotencyKey: String) {\n        buyCredits(input: $input, idempotencyKey: $idempotencyKey) {\n          agentId\n          quantity\n          amountCents\n          balance\n        }\n      }\n    ": typeof types.RestBuyCreditsDocument,
    "\n      mutation RestSimulateCardConfirmation($input: SimulateCardConfirmationInput!) {\n        simulateCardConfirmation(input: $input) {\n          status\n        }\n      }\n    ": typeof types.RestSimulateCardConfirmationDocument,
    "\n      query RestConnectedApps {\n        connectedApps {\n          clientId\n          name\n          redirectHosts\n          scopes\n          connectedAt\n          lastUsedAt\n        }\n      }\n    ": typeof types.RestConnectedAppsDocument,
    "\n      mutation RestDisconnectApp($clientId: ID!) {\n        disconnectApp(clientId: $clientId)\n      }\n    ": typeof types.RestDisconnectAppDocument,
    "\n  fragment DeliveryFields on Delivery {\n    id\n    taskId\n    status\n    type\n    attemptCount\n    nextAttemptAt\n    createdAt\n    attempts {\n      number\n      at\n      statusCode\n      latencyMs\n      error\n    }\n  }\n": typeof types.DeliveryFieldsFragmentDoc,
    "\n      query RestAgentDeliveries($agentId: ID!, $limit: Int) {\n        agentDeliveries(agentId: $agentId, limit: $limit) {\n          ...DeliveryFields\n        }\n      }\n    ": typeof types.RestAgentDeliveriesDocument,
    "\n      mutation RestRedeliver($agentId: ID!, $deliveryId: ID!) {\n        redeliver(agentId: $agentId, deliveryId: $deliveryId) {\n          ...DeliveryFields\n        }\n      }\n    ": typeof types.RestRedeliverDocument,
    "\n  fragment DiscoveryItemFields on PublicAgent {\n    id\n    name\n    slug\n    description\n    protocols\n    categories\n    capabilities\n    tags\n    endpoint\n    deliveryMode\n    docsUrl\n    authType\n    version\n    status\n  }\n": typeof types.DiscoveryItemFieldsFragmentDoc,
    "\n  fragment DiscoveryDetailFields on PublicAgent {\n    ...DiscoveryItemFields\n    longDescription\n    verified\n    healthStatus\n    inputSchema\n    twitterUrl\n    taskCount\n    avgRating\n    createdAt\n    updatedAt\n    stats {\n      recentTasks\n      successRate\n      p50CompletionMs\n      p95CompletionMs\n      successLowerBound\n      ratingCount\n      ratingAverage\n      ratingLowerBound\n    }\n  }\n": typeof types.DiscoveryDetailFieldsFragmentDoc,
    "\n    query RestDiscover(\n      $q: String\n      $protocols: [String!]\n      $categories: [String!]\n      $capabilities: [String!]\n      $status: AgentStatus\n      $page: Int\n      $perPage: Int\n      $sort: DiscoverySort\n    ) {\n      discover(\n        q: $q\n        protocols: $protocols\n        categories: $categories\n        capabilities: $capabilities\n        status: $status\n        page: $page\n        perPage: $perPage\n        sort: $sort\n      ) {\n        data {\n          ...DiscoveryItemFields\n        }\n        total\n        page\n        perPage\n        totalPages\n      }\n    }\n  ": typeof types.RestDiscoverDocument,
    "\n    query RestDiscoverAgent($slugOrId: String!) {\n      agent(slugOrId: $slugOrId) {\n        ...DiscoveryDetailFields\n      }\n    }\n  ": typeof types.RestDiscoverAgentDocument,
    "\n      mutation RestTestAgentWebhook($agentId: ID!) {\n        testAgentWebhook(agentId: $agentId) {\n          ok\n          statusCode\n          latencyMs\n          error\n          bodyStart\n          signed\n          at\n        }\n      }\n    ": typeof types.RestTestAgentWebhookDocument,
    "\n      mutation RestCheckAgentWebhook($agentId: ID!) {\n        checkAgentWebhook(agentId: $agentId) {\n          verifiesSignatures\n          acceptedValid\n          refusedWrongSignature\n          refusedStaleTimestamp\n          requests {\n            case\n            statusCode\n            latencyMs\n            error\n          }\n        }\n      }\n    ": typeof types.RestCheckAgentWebhookDocument,
    "\n      mutation RestRecoverDeliveries($agentId: ID!, $since: DateTime!, $until: DateTime) {\n        recoverDeliveries(agentId: $agentId, since: $since, until: $until) {\n          recovered\n          deliveryIds\n          since\n          until\n        }\n      }\n    ": typeof types.RestRecoverDeliveriesDocument,
    "\n      mutation RestEnableAgentEndpoint($agentId: ID!) {\n        enableAgentEndpoint(agentId: $agentId) {\n          ...AgentOwnerFields\n        }\n      }\n    ": typeof types.RestEnableAgentEndpointDocument,
    "\n      mutation RestUpdateAccount($input: AccountUpdateInput!) {\n        updateAccount(input: $input) {\n          notificationUrl\n          notificationSecret\n          message\n        }\n      }\n    ": typeof types.RestUpdateAccountDocument,
    "\n      query RestMyNotifications($limit: Int) {\n        myNotifications(limit: $limit) {\n          id\n          type\n          agentId\n          data\n          status\n          attemptCount\n          lastError\n          createdAt\n        }\n      }\n    ": typeof types.RestMyNotificationsDocument,
    "\n  fragment ClaimedTaskFields on ClaimedTask {\n    type\n    taskId\n    taskToken\n    title\n    description\n    input\n    callbackUrl\n    capabilities\n    priority\n    expiresAt\n    inputHash\n    round\n    files\n    lease {\n      expiresAt\n    }\n  }\n": typeof types.ClaimedTaskFieldsFragmentDoc,
    "\n      mutation RestClaimTasks($agentId: ID!, $max: Int, $waitSeconds: Int, $leaseSeconds: Int) {\n        claimTasks(agentId: $agentId, max: $max, waitSeconds: $waitSeconds, leaseSeconds: $leaseSeconds) {\n          ...ClaimedTaskFields\n        }\n      }\n    ": typeof types.RestClaimTasksDocument,
    "\n      mutation RestExtendTaskLease($agentId: ID!, $taskId: ID!, $leaseSeconds: Int) {\n        extendTaskLease(agentId: $agentId, taskId: $taskId, leaseSeconds: $leaseSeconds) {\n          taskId\n          lease {\n            expiresAt\n          }\n        }\n      }\n    ": typeof types.RestExtendTaskLeaseDocument,
    "\n      mutation RestReleaseTask($agentId: ID!, $taskId: ID!) {\n        releaseTask(agentId: $agentId, taskId: $taskId) {\n          taskId\n          released\n        }\n      }\n    ": typeof types.RestReleaseTaskDocument,
    "\n      mutation RestVerifyReceipt($receipt: String!) {\n        verifyReceipt(receipt: $receipt) {\n          valid\n          kid\n          payload\n          reason\n        }\n      }\n    ": typeof types.RestVerifyReceiptDocument,
    "\n      mutation RestRateTask($taskId: ID!, $rating: Int!) {\n        rateTask(taskId: $taskId, rating: $rating) {\n          taskId\n          agentId\n          rating\n          ratedAt\n          avgRating\n        }\n      }\n    ": typeof types.RestRateTaskDocument,
    "\n      query RestRequesterRecord($requesterId: ID!) {\n        requesterRecord(requesterId: $requesterId) {\n          requesterId\n          tasks\n          reviewed\n          approvalRate\n          rejectionRate\n          disputeRate\n          cancellationRate\n        }\n      }\n    ": typeof types.RestRequesterRecordDocument,
    "\n  fragment TaskFields on Task {\n    id\n    status\n    title\n    description\n    input\n    capabilities\n    protocols\n    priority\n    maxPriceCents\n    agentId\n    requesterId\n    result\n    error\n    rating\n    expiresAt\n    createdAt\n    updatedAt\n    matchedAt\n    startedAt\n    finishedAt\n    payment {\n      method\n      status\n      amountCents\n      autoCharged\n      cardBrand\n      cardLast4\n      heldAt\n      settledAt\n    }\n    reviewWindowSeconds\n    requirements\n    routing {\n      status\n      agentId\n      reason\n    }\n    routingExplanation\n    inputHash\n    resultHash\n    receipt\n    inputRequest\n    inputRounds\n    reviewEndsAt\n    approvedBy\n    disputeReason\n    disputeStatement\n    disputeContestedAt\n    disputeAnswerBy\n  }\n": typeof types.TaskFieldsFragmentDoc,
    "\n    mutation RestCreateTask($input: CreateTaskInput!, $idempotencyKey: String) {\n      createTask(input: $input, idempotencyKey: $idempotencyKey) {\n        task {\n          ...TaskFields\n        }\n        clientSecret\n        autoCharged\n      }\n    }\n  ": typeof types.RestCreateTaskDocument,
    "\n    query RestListTasks($role: TaskRole, $status: TaskStatus, $limit: Int, $cursor: String) {\n      tasks(role: $role, status: $status, limit: $limit, cursor: $cursor) {\n        data {\n          ...TaskFields\n        }\n        nextCursor\n      }\n    }\n  ": typeof types.RestListTasksDocument,
    "\n    query RestGetTask($id: ID!) {\n      task(id: $id) {\n        ...TaskFields\n      }\n    }\n  ": typeof types.RestGetTaskDocument,
    "\n  mutation RestCancelTask($id: ID!) {\n    cancelTask(id: $id) {\n      ...TaskFields\n    }\n  }\n": typeof types.RestCancelTaskDocument,
    "\n  mutation RestProvideTaskInput($id: ID!, $input: JSON!) {\n    provideTaskInput(id: $id, input: $input) {\n      ...TaskFields\n    }\n  }\n": typeof types.RestProvideTaskInputDocument,
    "\n      mutation RestRouteTask($input: RouteInput!) {\n        explainRoute(input: $input) {\n          candidates {\n            score\n            terms {\n              term\n              value\n              weight\n            }\n            agent {\n              ...DiscoveryItemFields\n              priceCents\n              trustTier\n              healthStatus\n            }\n          }\n          passedOver {\n            reasons\n            agent {\n              id\n              name\n              slug\n            }\n          }\n        }\n      }\n    ": typeof types.RestRouteTaskDocument,
    "\n    mutation RestAcceptTask($id: ID!) {\n      acceptTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  ": typeof types.RestAcceptTaskDocument,
    "\n    mutation RestStartTask($id: ID!) {\n      startTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  ": typeof types.RestStartTaskDocument,
    "\n    mutation RestCompleteTask($id: ID!, $result: JSON!) {\n      completeTask(id: $id, result: $result) {\n        ...TaskFields\n      }\n    }\n  ": typeof types.RestCompleteTaskDocument,
    "\n    mutation RestFailTask($id: ID!, $error: String!) {\n      failTask(id: $id, error: $error) {\n        ...TaskFields\n      }\n    }\n  ": typeof types.RestFailTaskDocument,
    "\n      mutation RestRequestTaskInput($id: ID!, $input: InputRequestInput!) {\n        requestTaskInput(id: $id, input: $input) {\n          ...TaskFields\n        }\n      }\n    ": typeof types.RestRequestTaskInputDocument,
    "\n    mutation RestApproveTask($id: ID!) {\n      approveTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  ": typeof types.RestApproveTaskDocument,
    "\n    mutation RestRejectTask($id: ID!, $reason: String!) {\n      rejectTask(id: $id, reason: $reason) {\n        ...TaskFields\n      }\n    }\n  ": typeof types.RestRejectTaskDocument,
    "\n    mutation RestRefundTask($id: ID!) {\n      refundTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  ": typeof types.RestRefundTaskDocument,
    "\n    mutation RestContestTask($id: ID!, $statement: String!) {\n      contestTask(id: $id, statement: $statement) {\n        ...TaskFields\n      }\n    }\n  ": typeof types.RestContestTaskDocument,
    "\n      query RestTaskHistory($id: ID!) {\n        task(id: $id) {\n          history {\n            at\n            actor\n            actorId\n            action\n            fromStatus\n            toStatus\n            note\n            data\n          }\n        }\n      }\n    ": typeof types.RestTaskHistoryDocument,
    "\n      mutation RestTaskCallback($id: ID!, $taskToken: String!, $result: JSON, $error: String, $inputRequired: InputRequestInput) {\n        taskCallback(id: $id, taskToken: $taskToken, result: $result, error: $error, inputRequired: $inputRequired)\n      }\n    ": typeof types.RestTaskCallbackDocument,
};
const documents: Documents = {
    "\n      mutation RestImportAgent($cardUrl: String!) {\n        importAgent(cardUrl: $cardUrl) {\n          ...AgentOwnerFields\n          card\n        }\n      }\n    ": types.RestImportAgentDocument,
    "\n      mutation RestRefreshAgentCard($id: ID!) {\n        refreshAgentCard(id: $id) {\n          ...AgentOwnerFields\n          card\n        }\n      }\n    ": types.RestRefreshAgentCardDocument,
    "\n  fragment AgentOwnerFields on Agent {\n    id\n    name\n    slug\n    description\n    longDescription\n    endpoint\n    deliveryMode\n    protocols\n    categories\n    capabilities\n    tags\n    docsUrl\n    manifestUrl\n    authType\n    version\n    inputSchema\n    twitterUrl\n    status\n    verified\n    healthStatus\n    trustScore\n    trustTier\n    hasWebhookSecret\n    previousWebhookSecretExpiresAt\n    signingPublicKey\n    previousSigningPublicKey\n    previousSigningKeyExpiresAt\n    deliveryState\n    endpointFailingSince\n    endpointDisabledAt\n    maxConcurrentTasks\n    maxDeliveriesPerSecond\n    priceCents\n    taskCount\n    avgRating\n    cardVerified\n    cardFetchedAt\n    iconUrl\n    provider {\n      organization\n      url\n    }\n    streaming\n    pushNotifications\n    createdAt\n    updatedAt\n  }\n": types.AgentOwnerFieldsFragmentDoc,
    "\n      query RestListAgents {\n        myAgents {\n          ...AgentOwnerFields\n        }\n      }\n    ": types.RestListAgentsDocument,
    "\n      mutation RestCreateAgent($input: AgentCreateInput!) {\n        createAgent(input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    ": types.RestCreateAgentDocument,
    "\n      query RestGetAgent($id: ID!) {\n        myAgent(id: $id) {\n          ...AgentOwnerFields\n        }\n      }\n    ": types.RestGetAgentDocument,
    "\n      mutation RestUpdateAgent($id: ID!, $input: AgentUpdateInput!) {\n        updateAgent(id: $id, input: $input) {\n          ...AgentOwnerFields\n        }\n      }\n    ": types.RestUpdateAgentDocument,
    "\n      mutation RestDeleteAgent($id: ID!) {\n        deleteAgent(id: $id) {\n          message\n        }\n      }\n    ": types.RestDeleteAgentDocument,
    "\n      mutation RestRotateWebhookSecret($id: ID!, $graceSeconds: Int) {\n        rotateAgentWebhookSecret(id: $id, graceSeconds: $graceSeconds) {\n          webhookSecret\n          previousSecretExpiresAt\n          message\n        }\n      }\n    ": types.RestRotateWebhookSecretDocument,
    "\n      mutation RestRotateSigningKey($id: ID!, $graceSeconds: Int) {\n        rotateAgentSigningKey(id: $id, graceSeconds: $graceSeconds) {\n          signingPublicKey\n          previousSigningPublicKey\n          previousKeyExpiresAt\n        }\n      }\n    ": types.RestRotateSigningKeyDocument,
    "\n      mutation RestRemoveWebhookSecret($id: ID!) {\n        removeAgentWebhookSecret(id: $id) {\n          id\n          hasWebhookSecret\n        }\n      }\n    ": types.RestRemoveWebhookSecretDocument,
    "\n      mutation RestCreateApiKey($name: String, $scopes: [String!], $expiresAt: DateTime) {\n        createApiKey(name: $name, scopes: $scopes, expiresAt: $expiresAt) {\n          id\n          name\n          prefix\n          scopes\n          expiresAt\n          apiKey\n        }\n      }\n    ": types.RestCreateApiKeyDocument,
    "\n      query RestApiKeys {\n        apiKeys {\n          id\n          name\n          prefix\n          scopes\n          createdAt\n          lastUsedAt\n          expiresAt\n          revokedAt\n        }\n      }\n    ": types.RestApiKeysDocument,
    "\n      mutation RestRevokeApiKey($id: ID!) {\n        revokeApiKey(id: $id) {\n          id\n          revokedAt\n        }\n      }\n    ": types.RestRevokeApiKeyDocument,
    "\n  fragment BillingFields on Billing {\n    card {\n      brand\n      last4\n    }\n    credits {\n      agentId\n      balance\n      agent {\n        name\n        slug\n        priceCents\n      }\n    }\n    payouts {\n      connected\n      owedCents\n    }\n  }\n": types.BillingFieldsFragmentDoc,
    "\n      query RestBilling {\n        billing {\n          ...BillingFields\n        }\n      }\n    ": types.RestBillingDocument,
    "\n      mutation RestCreateSetupIntent {\n        createSetupIntent {\n          clientSecret\n        }\n      }\n    ": types.RestCreateSetupIntentDocument,
    "\n      mutation RestSetDefaultPaymentMethod($input: SetDefaultPaymentMethodInput!) {\n        setDefaultPaymentMethod(input: $input) {\n          ...BillingFields\n        }\n      }\n    ": types.RestSetDefaultPaymentMethodDocument,
    "\n      mutation RestStartPayoutOnboarding {\n        startPayoutOnboarding {\n          url\n        }\n      }\n    ": types.RestStartPayoutOnboardingDocument,
    "\n      mutation RestBuyCredits($input: BuyCreditsInput!, $idempotencyKey: String) {\n        buyCredits(input: $input, idempotencyKey: $idempotencyKey) {\n          agentId\n          quantity\n          amountCents\n          balance\n        }\n      }\n    ": types.RestBuyCreditsDocument,
    "\n      mutation RestSimulateCardConfirmation($input: SimulateCardConfirmationInput!) {\n        simulateCardConfirmation(input: $input) {\n          status\n        }\n      }\n    ": types.RestSimulateCardConfirmationDocument,
    "\n      query RestConnectedApps {\n        connectedApps {\n          clientId\n          name\n          redirectHosts\n          scopes\n          connectedAt\n          lastUsedAt\n        }\n      }\n    ": types.RestConnectedAppsDocument,
    "\n      mutation RestDisconnectApp($clientId: ID!) {\n        disconnectApp(clientId: $clientId)\n      }\n    ": types.RestDisconnectAppDocument,
    "\n  fragment DeliveryFields on Delivery {\n    id\n    taskId\n    status\n    type\n    attemptCount\n    nextAttemptAt\n    createdAt\n    attempts {\n      number\n      at\n      statusCode\n      latencyMs\n      error\n    }\n  }\n": types.DeliveryFieldsFragmentDoc,
    "\n      query RestAgentDeliveries($agentId: ID!, $limit: Int) {\n        agentDeliveries(agentId: $agentId, limit: $limit) {\n          ...DeliveryFields\n        }\n      }\n    ": types.RestAgentDeliveriesDocument,
    "\n      mutation RestRedeliver($agentId: ID!, $deliveryId: ID!) {\n        redeliver(agentId: $agentId, deliveryId: $deliveryId) {\n          ...DeliveryFields\n        }\n      }\n    ": types.RestRedeliverDocument,
    "\n  fragment DiscoveryItemFields on PublicAgent {\n    id\n    name\n    slug\n    description\n    protocols\n    categories\n    capabilities\n    tags\n    endpoint\n    deliveryMode\n    docsUrl\n    authType\n    version\n    status\n  }\n": types.DiscoveryItemFieldsFragmentDoc,
    "\n  fragment DiscoveryDetailFields on PublicAgent {\n    ...DiscoveryItemFields\n    longDescription\n    verified\n    healthStatus\n    inputSchema\n    twitterUrl\n    taskCount\n    avgRating\n    createdAt\n    updatedAt\n    stats {\n      recentTasks\n      successRate\n      p50CompletionMs\n      p95CompletionMs\n      successLowerBound\n      ratingCount\n      ratingAverage\n      ratingLowerBound\n    }\n  }\n": types.DiscoveryDetailFieldsFragmentDoc,
    "\n    query RestDiscover(\n      $q: String\n      $protocols: [String!]\n      $categories: [String!]\n      $capabilities: [String!]\n      $status: AgentStatus\n      $page: Int\n      $perPage: Int\n      $sort: DiscoverySort\n    ) {\n      discover(\n        q: $q\n        protocols: $protocols\n        categories: $categories\n        capabilities: $capabilities\n        status: $status\n        page: $page\n        perPage: $perPage\n        sort: $sort\n      ) {\n        data {\n          ...DiscoveryItemFields\n        }\n        total\n        page\n        perPage\n        totalPages\n      }\n    }\n  ": types.RestDiscoverDocument,
    "\n    query RestDiscoverAgent($slugOrId: String!) {\n      agent(slugOrId: $slugOrId) {\n        ...DiscoveryDetailFields\n      }\n    }\n  ": types.RestDiscoverAgentDocument,
    "\n      mutation RestTestAgentWebhook($agentId: ID!) {\n        testAgentWebhook(agentId: $agentId) {\n          ok\n          statusCode\n          latencyMs\n          error\n          bodyStart\n          signed\n          at\n        }\n      }\n    ": types.RestTestAgentWebhookDocument,
    "\n      mutation RestCheckAgentWebhook($agentId: ID!) {\n        checkAgentWebhook(agentId: $agentId) {\n          verifiesSignatures\n          acceptedValid\n          refusedWrongSignature\n          refusedStaleTimestamp\n          requests {\n            case\n            statusCode\n            latencyMs\n            error\n          }\n        }\n      }\n    ": types.RestCheckAgentWebhookDocument,
    "\n      mutation RestRecoverDeliveries($agentId: ID!, $since: DateTime!, $until: DateTime) {\n        recoverDeliveries(agentId: $agentId, since: $since, until: $until) {\n          recovered\n          deliveryIds\n          since\n          until\n        }\n      }\n    ": types.RestRecoverDeliveriesDocument,
    "\n      mutation RestEnableAgentEndpoint($agentId: ID!) {\n        enableAgentEndpoint(agentId: $agentId) {\n          ...AgentOwnerFields\n        }\n      }\n    ": types.RestEnableAgentEndpointDocument,
    "\n      mutation RestUpdateAccount($input: AccountUpdateInput!) {\n        updateAccount(input: $input) {\n          notificationUrl\n          notificationSecret\n          message\n        }\n      }\n    ": types.RestUpdateAccountDocument,
    "\n      query RestMyNotifications($limit: Int) {\n        myNotifications(limit: $limit) {\n          id\n          type\n          agentId\n          data\n          status\n          attemptCount\n          lastError\n          createdAt\n        }\n      }\n    ": types.RestMyNotificationsDocument,
    "\n  fragment ClaimedTaskFields on ClaimedTask {\n    type\n    taskId\n    taskToken\n    title\n    description\n    input\n    callbackUrl\n    capabilities\n    priority\n    expiresAt\n    inputHash\n    round\n    files\n    lease {\n      expiresAt\n    }\n  }\n": types.ClaimedTaskFieldsFragmentDoc,
    "\n      mutation RestClaimTasks($agentId: ID!, $max: Int, $waitSeconds: Int, $leaseSeconds: Int) {\n        claimTasks(agentId: $agentId, max: $max, waitSeconds: $waitSeconds, leaseSeconds: $leaseSeconds) {\n          ...ClaimedTaskFields\n        }\n      }\n    ": types.RestClaimTasksDocument,
    "\n      mutation RestExtendTaskLease($agentId: ID!, $taskId: ID!, $leaseSeconds: Int) {\n        extendTaskLease(agentId: $agentId, taskId: $taskId, leaseSeconds: $leaseSeconds) {\n          taskId\n          lease {\n            expiresAt\n          }\n        }\n      }\n    ": types.RestExtendTaskLeaseDocument,
    "\n      mutation RestReleaseTask($agentId: ID!, $taskId: ID!) {\n        releaseTask(agentId: $agentId, taskId: $taskId) {\n          taskId\n          released\n        }\n      }\n    ": types.RestReleaseTaskDocument,
    "\n      mutation RestVerifyReceipt($receipt: String!) {\n        verifyReceipt(receipt: $receipt) {\n          valid\n          kid\n          payload\n          reason\n        }\n      }\n    ": types.RestVerifyReceiptDocument,
    "\n      mutation RestRateTask($taskId: ID!, $rating: Int!) {\n        rateTask(taskId: $taskId, rating: $rating) {\n          taskId\n          agentId\n          rating\n          ratedAt\n          avgRating\n        }\n      }\n    ": types.RestRateTaskDocument,
    "\n      query RestRequesterRecord($requesterId: ID!) {\n        requesterRecord(requesterId: $requesterId) {\n          requesterId\n          tasks\n          reviewed\n          approvalRate\n          rejectionRate\n          disputeRate\n          cancellationRate\n        }\n      }\n    ": types.RestRequesterRecordDocument,
    "\n  fragment TaskFields on Task {\n    id\n    status\n    title\n    description\n    input\n    capabilities\n    protocols\n    priority\n    maxPriceCents\n    agentId\n    requesterId\n    result\n    error\n    rating\n    expiresAt\n    createdAt\n    updatedAt\n    matchedAt\n    startedAt\n    finishedAt\n    payment {\n      method\n      status\n      amountCents\n      autoCharged\n      cardBrand\n      cardLast4\n      heldAt\n      settledAt\n    }\n    reviewWindowSeconds\n    requirements\n    routing {\n      status\n      agentId\n      reason\n    }\n    routingExplanation\n    inputHash\n    resultHash\n    receipt\n    inputRequest\n    inputRounds\n    reviewEndsAt\n    approvedBy\n    disputeReason\n    disputeStatement\n    disputeContestedAt\n    disputeAnswerBy\n  }\n": types.TaskFieldsFragmentDoc,
    "\n    mutation RestCreateTask($input: CreateTaskInput!, $idempotencyKey: String) {\n      createTask(input: $input, idempotencyKey: $idempotencyKey) {\n        task {\n          ...TaskFields\n        }\n        clientSecret\n        autoCharged\n      }\n    }\n  ": types.RestCreateTaskDocument,
    "\n    query RestListTasks($role: TaskRole, $status: TaskStatus, $limit: Int, $cursor: String) {\n      tasks(role: $role, status: $status, limit: $limit, cursor: $cursor) {\n        data {\n          ...TaskFields\n        }\n        nextCursor\n      }\n    }\n  ": types.RestListTasksDocument,
    "\n    query RestGetTask($id: ID!) {\n      task(id: $id) {\n        ...TaskFields\n      }\n    }\n  ": types.RestGetTaskDocument,
    "\n  mutation RestCancelTask($id: ID!) {\n    cancelTask(id: $id) {\n      ...TaskFields\n    }\n  }\n": types.RestCancelTaskDocument,
    "\n  mutation RestProvideTaskInput($id: ID!, $input: JSON!) {\n    provideTaskInput(id: $id, input: $input) {\n      ...TaskFields\n    }\n  }\n": types.RestProvideTaskInputDocument,
    "\n      mutation RestRouteTask($input: RouteInput!) {\n        explainRoute(input: $input) {\n          candidates {\n            score\n            terms {\n              term\n              value\n              weight\n            }\n            agent {\n              ...DiscoveryItemFields\n              priceCents\n              trustTier\n              healthStatus\n            }\n          }\n          passedOver {\n            reasons\n            agent {\n              id\n              name\n              slug\n            }\n          }\n        }\n      }\n    ": types.RestRouteTaskDocument,
    "\n    mutation RestAcceptTask($id: ID!) {\n      acceptTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  ": types.RestAcceptTaskDocument,
    "\n    mutation RestStartTask($id: ID!) {\n      startTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  ": types.RestStartTaskDocument,
    "\n    mutation RestCompleteTask($id: ID!, $result: JSON!) {\n      completeTask(id: $id, result: $result) {\n        ...TaskFields\n      }\n    }\n  ": types.RestCompleteTaskDocument,
    "\n    mutation RestFailTask($id: ID!, $error: String!) {\n      failTask(id: $id, error: $error) {\n        ...TaskFields\n      }\n    }\n  ": types.RestFailTaskDocument,
    "\n      mutation RestRequestTaskInput($id: ID!, $input: InputRequestInput!) {\n        requestTaskInput(id: $id, input: $input) {\n          ...TaskFields\n        }\n      }\n    ": types.RestRequestTaskInputDocument,
    "\n    mutation RestApproveTask($id: ID!) {\n      approveTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  ": types.RestApproveTaskDocument,
    "\n    mutation RestRejectTask($id: ID!, $reason: String!) {\n      rejectTask(id: $id, reason: $reason) {\n        ...TaskFields\n      }\n    }\n  ": types.RestRejectTaskDocument,
    "\n    mutation RestRefundTask($id: ID!) {\n      refundTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  ": types.RestRefundTaskDocument,
    "\n    mutation RestContestTask($id: ID!, $statement: String!) {\n      contestTask(id: $id, statement: $statement) {\n        ...TaskFields\n      }\n    }\n  ": types.RestContestTaskDocument,
    "\n      query RestTaskHistory($id: ID!) {\n        task(id: $id) {\n          history {\n            at\n            actor\n            actorId\n            action\n            fromStatus\n            toStatus\n            note\n            data\n          }\n        }\n      }\n    ": types.RestTaskHistoryDocument,
    "\n      mutation RestTaskCallback($id: ID!, $taskToken: String!, $result: JSON, $error: String, $inputRequired: InputRequestInput) {\n        taskCallback(id: $id, taskToken: $taskToken, result: $result, error: $error, inputRequired: $inputRequired)\n      }\n    ": types.RestTaskCallbackDocument,
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
export function graphql(source: "\n      mutation RestImportAgent($cardUrl: String!) {\n        importAgent(cardUrl: $cardUrl) {\n          ...AgentOwnerFields\n          card\n        }\n      }\n    "): (typeof documents)["\n      mutation RestImportAgent($cardUrl: String!) {\n        importAgent(cardUrl: $cardUrl) {\n          ...AgentOwnerFields\n          card\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRefreshAgentCard($id: ID!) {\n        refreshAgentCard(id: $id) {\n          ...AgentOwnerFields\n          card\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRefreshAgentCard($id: ID!) {\n        refreshAgentCard(id: $id) {\n          ...AgentOwnerFields\n          card\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AgentOwnerFields on Agent {\n    id\n    name\n    slug\n    description\n    longDescription\n    endpoint\n    deliveryMode\n    protocols\n    categories\n    capabilities\n    tags\n    docsUrl\n    manifestUrl\n    authType\n    version\n    inputSchema\n    twitterUrl\n    status\n    verified\n    healthStatus\n    trustScore\n    trustTier\n    hasWebhookSecret\n    previousWebhookSecretExpiresAt\n    signingPublicKey\n    previousSigningPublicKey\n    previousSigningKeyExpiresAt\n    deliveryState\n    endpointFailingSince\n    endpointDisabledAt\n    maxConcurrentTasks\n    maxDeliveriesPerSecond\n    priceCents\n    taskCount\n    avgRating\n    cardVerified\n    cardFetchedAt\n    iconUrl\n    provider {\n      organization\n      url\n    }\n    streaming\n    pushNotifications\n    createdAt\n    updatedAt\n  }\n"): (typeof documents)["\n  fragment AgentOwnerFields on Agent {\n    id\n    name\n    slug\n    description\n    longDescription\n    endpoint\n    deliveryMode\n    protocols\n    categories\n    capabilities\n    tags\n    docsUrl\n    manifestUrl\n    authType\n    version\n    inputSchema\n    twitterUrl\n    status\n    verified\n    healthStatus\n    trustScore\n    trustTier\n    hasWebhookSecret\n    previousWebhookSecretExpiresAt\n    signingPublicKey\n    previousSigningPublicKey\n    previousSigningKeyExpiresAt\n    deliveryState\n    endpointFailingSince\n    endpointDisabledAt\n    maxConcurrentTasks\n    maxDeliveriesPerSecond\n    priceCents\n    taskCount\n    avgRating\n    cardVerified\n    cardFetchedAt\n    iconUrl\n    provider {\n      organization\n      url\n    }\n    streaming\n    pushNotifications\n    createdAt\n    updatedAt\n  }\n"];
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
export function graphql(source: "\n      mutation RestRotateWebhookSecret($id: ID!, $graceSeconds: Int) {\n        rotateAgentWebhookSecret(id: $id, graceSeconds: $graceSeconds) {\n          webhookSecret\n          previousSecretExpiresAt\n          message\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRotateWebhookSecret($id: ID!, $graceSeconds: Int) {\n        rotateAgentWebhookSecret(id: $id, graceSeconds: $graceSeconds) {\n          webhookSecret\n          previousSecretExpiresAt\n          message\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRotateSigningKey($id: ID!, $graceSeconds: Int) {\n        rotateAgentSigningKey(id: $id, graceSeconds: $graceSeconds) {\n          signingPublicKey\n          previousSigningPublicKey\n          previousKeyExpiresAt\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRotateSigningKey($id: ID!, $graceSeconds: Int) {\n        rotateAgentSigningKey(id: $id, graceSeconds: $graceSeconds) {\n          signingPublicKey\n          previousSigningPublicKey\n          previousKeyExpiresAt\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRemoveWebhookSecret($id: ID!) {\n        removeAgentWebhookSecret(id: $id) {\n          id\n          hasWebhookSecret\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRemoveWebhookSecret($id: ID!) {\n        removeAgentWebhookSecret(id: $id) {\n          id\n          hasWebhookSecret\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestCreateApiKey($name: String, $scopes: [String!], $expiresAt: DateTime) {\n        createApiKey(name: $name, scopes: $scopes, expiresAt: $expiresAt) {\n          id\n          name\n          prefix\n          scopes\n          expiresAt\n          apiKey\n        }\n      }\n    "): (typeof documents)["\n      mutation RestCreateApiKey($name: String, $scopes: [String!], $expiresAt: DateTime) {\n        createApiKey(name: $name, scopes: $scopes, expiresAt: $expiresAt) {\n          id\n          name\n          prefix\n          scopes\n          expiresAt\n          apiKey\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestApiKeys {\n        apiKeys {\n          id\n          name\n          prefix\n          scopes\n          createdAt\n          lastUsedAt\n          expiresAt\n          revokedAt\n        }\n      }\n    "): (typeof documents)["\n      query RestApiKeys {\n        apiKeys {\n          id\n          name\n          prefix\n          scopes\n          createdAt\n          lastUsedAt\n          expiresAt\n          revokedAt\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRevokeApiKey($id: ID!) {\n        revokeApiKey(id: $id) {\n          id\n          revokedAt\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRevokeApiKey($id: ID!) {\n        revokeApiKey(id: $id) {\n          id\n          revokedAt\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment BillingFields on Billing {\n    card {\n      brand\n      last4\n    }\n    credits {\n      agentId\n      balance\n      agent {\n        name\n        slug\n        priceCents\n      }\n    }\n    payouts {\n      connected\n      owedCents\n    }\n  }\n"): (typeof documents)["\n  fragment BillingFields on Billing {\n    card {\n      brand\n      last4\n    }\n    credits {\n      agentId\n      balance\n      agent {\n        name\n        slug\n        priceCents\n      }\n    }\n    payouts {\n      connected\n      owedCents\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestBilling {\n        billing {\n          ...BillingFields\n        }\n      }\n    "): (typeof documents)["\n      query RestBilling {\n        billing {\n          ...BillingFields\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestCreateSetupIntent {\n        createSetupIntent {\n          clientSecret\n        }\n      }\n    "): (typeof documents)["\n      mutation RestCreateSetupIntent {\n        createSetupIntent {\n          clientSecret\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestSetDefaultPaymentMethod($input: SetDefaultPaymentMethodInput!) {\n        setDefaultPaymentMethod(input: $input) {\n          ...BillingFields\n        }\n      }\n    "): (typeof documents)["\n      mutation RestSetDefaultPaymentMethod($input: SetDefaultPaymentMethodInput!) {\n        setDefaultPaymentMethod(input: $input) {\n          ...BillingFields\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestStartPayoutOnboarding {\n        startPayoutOnboarding {\n          url\n        }\n      }\n    "): (typeof documents)["\n      mutation RestStartPayoutOnboarding {\n        startPayoutOnboarding {\n          url\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestBuyCredits($input: BuyCreditsInput!, $idempotencyKey: String) {\n        buyCredits(input: $input, idempotencyKey: $idempotencyKey) {\n          agentId\n          quantity\n          amountCents\n          balance\n        }\n      }\n    "): (typeof documents)["\n      mutation RestBuyCredits($input: BuyCreditsInput!, $idempotencyKey: String) {\n        buyCredits(input: $input, idempotencyKey: $idempotencyKey) {\n          agentId\n          quantity\n          amountCents\n          balance\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestSimulateCardConfirmation($input: SimulateCardConfirmationInput!) {\n        simulateCardConfirmation(input: $input) {\n          status\n        }\n      }\n    "): (typeof documents)["\n      mutation RestSimulateCardConfirmation($input: SimulateCardConfirmationInput!) {\n        simulateCardConfirmation(input: $input) {\n          status\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestConnectedApps {\n        connectedApps {\n          clientId\n          name\n          redirectHosts\n          scopes\n          connectedAt\n          lastUsedAt\n        }\n      }\n    "): (typeof documents)["\n      query RestConnectedApps {\n        connectedApps {\n          clientId\n          name\n          redirectHosts\n          scopes\n          connectedAt\n          lastUsedAt\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestDisconnectApp($clientId: ID!) {\n        disconnectApp(clientId: $clientId)\n      }\n    "): (typeof documents)["\n      mutation RestDisconnectApp($clientId: ID!) {\n        disconnectApp(clientId: $clientId)\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DeliveryFields on Delivery {\n    id\n    taskId\n    status\n    type\n    attemptCount\n    nextAttemptAt\n    createdAt\n    attempts {\n      number\n      at\n      statusCode\n      latencyMs\n      error\n    }\n  }\n"): (typeof documents)["\n  fragment DeliveryFields on Delivery {\n    id\n    taskId\n    status\n    type\n    attemptCount\n    nextAttemptAt\n    createdAt\n    attempts {\n      number\n      at\n      statusCode\n      latencyMs\n      error\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestAgentDeliveries($agentId: ID!, $limit: Int) {\n        agentDeliveries(agentId: $agentId, limit: $limit) {\n          ...DeliveryFields\n        }\n      }\n    "): (typeof documents)["\n      query RestAgentDeliveries($agentId: ID!, $limit: Int) {\n        agentDeliveries(agentId: $agentId, limit: $limit) {\n          ...DeliveryFields\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRedeliver($agentId: ID!, $deliveryId: ID!) {\n        redeliver(agentId: $agentId, deliveryId: $deliveryId) {\n          ...DeliveryFields\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRedeliver($agentId: ID!, $deliveryId: ID!) {\n        redeliver(agentId: $agentId, deliveryId: $deliveryId) {\n          ...DeliveryFields\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DiscoveryItemFields on PublicAgent {\n    id\n    name\n    slug\n    description\n    protocols\n    categories\n    capabilities\n    tags\n    endpoint\n    deliveryMode\n    docsUrl\n    authType\n    version\n    status\n  }\n"): (typeof documents)["\n  fragment DiscoveryItemFields on PublicAgent {\n    id\n    name\n    slug\n    description\n    protocols\n    categories\n    capabilities\n    tags\n    endpoint\n    deliveryMode\n    docsUrl\n    authType\n    version\n    status\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DiscoveryDetailFields on PublicAgent {\n    ...DiscoveryItemFields\n    longDescription\n    verified\n    healthStatus\n    inputSchema\n    twitterUrl\n    taskCount\n    avgRating\n    createdAt\n    updatedAt\n    stats {\n      recentTasks\n      successRate\n      p50CompletionMs\n      p95CompletionMs\n      successLowerBound\n      ratingCount\n      ratingAverage\n      ratingLowerBound\n    }\n  }\n"): (typeof documents)["\n  fragment DiscoveryDetailFields on PublicAgent {\n    ...DiscoveryItemFields\n    longDescription\n    verified\n    healthStatus\n    inputSchema\n    twitterUrl\n    taskCount\n    avgRating\n    createdAt\n    updatedAt\n    stats {\n      recentTasks\n      successRate\n      p50CompletionMs\n      p95CompletionMs\n      successLowerBound\n      ratingCount\n      ratingAverage\n      ratingLowerBound\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query RestDiscover(\n      $q: String\n      $protocols: [String!]\n      $categories: [String!]\n      $capabilities: [String!]\n      $status: AgentStatus\n      $page: Int\n      $perPage: Int\n      $sort: DiscoverySort\n    ) {\n      discover(\n        q: $q\n        protocols: $protocols\n        categories: $categories\n        capabilities: $capabilities\n        status: $status\n        page: $page\n        perPage: $perPage\n        sort: $sort\n      ) {\n        data {\n          ...DiscoveryItemFields\n        }\n        total\n        page\n        perPage\n        totalPages\n      }\n    }\n  "): (typeof documents)["\n    query RestDiscover(\n      $q: String\n      $protocols: [String!]\n      $categories: [String!]\n      $capabilities: [String!]\n      $status: AgentStatus\n      $page: Int\n      $perPage: Int\n      $sort: DiscoverySort\n    ) {\n      discover(\n        q: $q\n        protocols: $protocols\n        categories: $categories\n        capabilities: $capabilities\n        status: $status\n        page: $page\n        perPage: $perPage\n        sort: $sort\n      ) {\n        data {\n          ...DiscoveryItemFields\n        }\n        total\n        page\n        perPage\n        totalPages\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query RestDiscoverAgent($slugOrId: String!) {\n      agent(slugOrId: $slugOrId) {\n        ...DiscoveryDetailFields\n      }\n    }\n  "): (typeof documents)["\n    query RestDiscoverAgent($slugOrId: String!) {\n      agent(slugOrId: $slugOrId) {\n        ...DiscoveryDetailFields\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestTestAgentWebhook($agentId: ID!) {\n        testAgentWebhook(agentId: $agentId) {\n          ok\n          statusCode\n          latencyMs\n          error\n          bodyStart\n          signed\n          at\n        }\n      }\n    "): (typeof documents)["\n      mutation RestTestAgentWebhook($agentId: ID!) {\n        testAgentWebhook(agentId: $agentId) {\n          ok\n          statusCode\n          latencyMs\n          error\n          bodyStart\n          signed\n          at\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestCheckAgentWebhook($agentId: ID!) {\n        checkAgentWebhook(agentId: $agentId) {\n          verifiesSignatures\n          acceptedValid\n          refusedWrongSignature\n          refusedStaleTimestamp\n          requests {\n            case\n            statusCode\n            latencyMs\n            error\n          }\n        }\n      }\n    "): (typeof documents)["\n      mutation RestCheckAgentWebhook($agentId: ID!) {\n        checkAgentWebhook(agentId: $agentId) {\n          verifiesSignatures\n          acceptedValid\n          refusedWrongSignature\n          refusedStaleTimestamp\n          requests {\n            case\n            statusCode\n            latencyMs\n            error\n          }\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRecoverDeliveries($agentId: ID!, $since: DateTime!, $until: DateTime) {\n        recoverDeliveries(agentId: $agentId, since: $since, until: $until) {\n          recovered\n          deliveryIds\n          since\n          until\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRecoverDeliveries($agentId: ID!, $since: DateTime!, $until: DateTime) {\n        recoverDeliveries(agentId: $agentId, since: $since, until: $until) {\n          recovered\n          deliveryIds\n          since\n          until\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestEnableAgentEndpoint($agentId: ID!) {\n        enableAgentEndpoint(agentId: $agentId) {\n          ...AgentOwnerFields\n        }\n      }\n    "): (typeof documents)["\n      mutation RestEnableAgentEndpoint($agentId: ID!) {\n        enableAgentEndpoint(agentId: $agentId) {\n          ...AgentOwnerFields\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestUpdateAccount($input: AccountUpdateInput!) {\n        updateAccount(input: $input) {\n          notificationUrl\n          notificationSecret\n          message\n        }\n      }\n    "): (typeof documents)["\n      mutation RestUpdateAccount($input: AccountUpdateInput!) {\n        updateAccount(input: $input) {\n          notificationUrl\n          notificationSecret\n          message\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestMyNotifications($limit: Int) {\n        myNotifications(limit: $limit) {\n          id\n          type\n          agentId\n          data\n          status\n          attemptCount\n          lastError\n          createdAt\n        }\n      }\n    "): (typeof documents)["\n      query RestMyNotifications($limit: Int) {\n        myNotifications(limit: $limit) {\n          id\n          type\n          agentId\n          data\n          status\n          attemptCount\n          lastError\n          createdAt\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ClaimedTaskFields on ClaimedTask {\n    type\n    taskId\n    taskToken\n    title\n    description\n    input\n    callbackUrl\n    capabilities\n    priority\n    expiresAt\n    inputHash\n    round\n    files\n    lease {\n      expiresAt\n    }\n  }\n"): (typeof documents)["\n  fragment ClaimedTaskFields on ClaimedTask {\n    type\n    taskId\n    taskToken\n    title\n    description\n    input\n    callbackUrl\n    capabilities\n    priority\n    expiresAt\n    inputHash\n    round\n    files\n    lease {\n      expiresAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestClaimTasks($agentId: ID!, $max: Int, $waitSeconds: Int, $leaseSeconds: Int) {\n        claimTasks(agentId: $agentId, max: $max, waitSeconds: $waitSeconds, leaseSeconds: $leaseSeconds) {\n          ...ClaimedTaskFields\n        }\n      }\n    "): (typeof documents)["\n      mutation RestClaimTasks($agentId: ID!, $max: Int, $waitSeconds: Int, $leaseSeconds: Int) {\n        claimTasks(agentId: $agentId, max: $max, waitSeconds: $waitSeconds, leaseSeconds: $leaseSeconds) {\n          ...ClaimedTaskFields\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestExtendTaskLease($agentId: ID!, $taskId: ID!, $leaseSeconds: Int) {\n        extendTaskLease(agentId: $agentId, taskId: $taskId, leaseSeconds: $leaseSeconds) {\n          taskId\n          lease {\n            expiresAt\n          }\n        }\n      }\n    "): (typeof documents)["\n      mutation RestExtendTaskLease($agentId: ID!, $taskId: ID!, $leaseSeconds: Int) {\n        extendTaskLease(agentId: $agentId, taskId: $taskId, leaseSeconds: $leaseSeconds) {\n          taskId\n          lease {\n            expiresAt\n          }\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestReleaseTask($agentId: ID!, $taskId: ID!) {\n        releaseTask(agentId: $agentId, taskId: $taskId) {\n          taskId\n          released\n        }\n      }\n    "): (typeof documents)["\n      mutation RestReleaseTask($agentId: ID!, $taskId: ID!) {\n        releaseTask(agentId: $agentId, taskId: $taskId) {\n          taskId\n          released\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestVerifyReceipt($receipt: String!) {\n        verifyReceipt(receipt: $receipt) {\n          valid\n          kid\n          payload\n          reason\n        }\n      }\n    "): (typeof documents)["\n      mutation RestVerifyReceipt($receipt: String!) {\n        verifyReceipt(receipt: $receipt) {\n          valid\n          kid\n          payload\n          reason\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRateTask($taskId: ID!, $rating: Int!) {\n        rateTask(taskId: $taskId, rating: $rating) {\n          taskId\n          agentId\n          rating\n          ratedAt\n          avgRating\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRateTask($taskId: ID!, $rating: Int!) {\n        rateTask(taskId: $taskId, rating: $rating) {\n          taskId\n          agentId\n          rating\n          ratedAt\n          avgRating\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestRequesterRecord($requesterId: ID!) {\n        requesterRecord(requesterId: $requesterId) {\n          requesterId\n          tasks\n          reviewed\n          approvalRate\n          rejectionRate\n          disputeRate\n          cancellationRate\n        }\n      }\n    "): (typeof documents)["\n      query RestRequesterRecord($requesterId: ID!) {\n        requesterRecord(requesterId: $requesterId) {\n          requesterId\n          tasks\n          reviewed\n          approvalRate\n          rejectionRate\n          disputeRate\n          cancellationRate\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TaskFields on Task {\n    id\n    status\n    title\n    description\n    input\n    capabilities\n    protocols\n    priority\n    maxPriceCents\n    agentId\n    requesterId\n    result\n    error\n    rating\n    expiresAt\n    createdAt\n    updatedAt\n    matchedAt\n    startedAt\n    finishedAt\n    payment {\n      method\n      status\n      amountCents\n      autoCharged\n      cardBrand\n      cardLast4\n      heldAt\n      settledAt\n    }\n    reviewWindowSeconds\n    requirements\n    routing {\n      status\n      agentId\n      reason\n    }\n    routingExplanation\n    inputHash\n    resultHash\n    receipt\n    inputRequest\n    inputRounds\n    reviewEndsAt\n    approvedBy\n    disputeReason\n    disputeStatement\n    disputeContestedAt\n    disputeAnswerBy\n  }\n"): (typeof documents)["\n  fragment TaskFields on Task {\n    id\n    status\n    title\n    description\n    input\n    capabilities\n    protocols\n    priority\n    maxPriceCents\n    agentId\n    requesterId\n    result\n    error\n    rating\n    expiresAt\n    createdAt\n    updatedAt\n    matchedAt\n    startedAt\n    finishedAt\n    payment {\n      method\n      status\n      amountCents\n      autoCharged\n      cardBrand\n      cardLast4\n      heldAt\n      settledAt\n    }\n    reviewWindowSeconds\n    requirements\n    routing {\n      status\n      agentId\n      reason\n    }\n    routingExplanation\n    inputHash\n    resultHash\n    receipt\n    inputRequest\n    inputRounds\n    reviewEndsAt\n    approvedBy\n    disputeReason\n    disputeStatement\n    disputeContestedAt\n    disputeAnswerBy\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RestCreateTask($input: CreateTaskInput!, $idempotencyKey: String) {\n      createTask(input: $input, idempotencyKey: $idempotencyKey) {\n        task {\n          ...TaskFields\n        }\n        clientSecret\n        autoCharged\n      }\n    }\n  "): (typeof documents)["\n    mutation RestCreateTask($input: CreateTaskInput!, $idempotencyKey: String) {\n      createTask(input: $input, idempotencyKey: $idempotencyKey) {\n        task {\n          ...TaskFields\n        }\n        clientSecret\n        autoCharged\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query RestListTasks($role: TaskRole, $status: TaskStatus, $limit: Int, $cursor: String) {\n      tasks(role: $role, status: $status, limit: $limit, cursor: $cursor) {\n        data {\n          ...TaskFields\n        }\n        nextCursor\n      }\n    }\n  "): (typeof documents)["\n    query RestListTasks($role: TaskRole, $status: TaskStatus, $limit: Int, $cursor: String) {\n      tasks(role: $role, status: $status, limit: $limit, cursor: $cursor) {\n        data {\n          ...TaskFields\n        }\n        nextCursor\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query RestGetTask($id: ID!) {\n      task(id: $id) {\n        ...TaskFields\n      }\n    }\n  "): (typeof documents)["\n    query RestGetTask($id: ID!) {\n      task(id: $id) {\n        ...TaskFields\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RestCancelTask($id: ID!) {\n    cancelTask(id: $id) {\n      ...TaskFields\n    }\n  }\n"): (typeof documents)["\n  mutation RestCancelTask($id: ID!) {\n    cancelTask(id: $id) {\n      ...TaskFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RestProvideTaskInput($id: ID!, $input: JSON!) {\n    provideTaskInput(id: $id, input: $input) {\n      ...TaskFields\n    }\n  }\n"): (typeof documents)["\n  mutation RestProvideTaskInput($id: ID!, $input: JSON!) {\n    provideTaskInput(id: $id, input: $input) {\n      ...TaskFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRouteTask($input: RouteInput!) {\n        explainRoute(input: $input) {\n          candidates {\n            score\n            terms {\n              term\n              value\n              weight\n            }\n            agent {\n              ...DiscoveryItemFields\n              priceCents\n              trustTier\n              healthStatus\n            }\n          }\n          passedOver {\n            reasons\n            agent {\n              id\n              name\n              slug\n            }\n          }\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRouteTask($input: RouteInput!) {\n        explainRoute(input: $input) {\n          candidates {\n            score\n            terms {\n              term\n              value\n              weight\n            }\n            agent {\n              ...DiscoveryItemFields\n              priceCents\n              trustTier\n              healthStatus\n            }\n          }\n          passedOver {\n            reasons\n            agent {\n              id\n              name\n              slug\n            }\n          }\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RestAcceptTask($id: ID!) {\n      acceptTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  "): (typeof documents)["\n    mutation RestAcceptTask($id: ID!) {\n      acceptTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RestStartTask($id: ID!) {\n      startTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  "): (typeof documents)["\n    mutation RestStartTask($id: ID!) {\n      startTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RestCompleteTask($id: ID!, $result: JSON!) {\n      completeTask(id: $id, result: $result) {\n        ...TaskFields\n      }\n    }\n  "): (typeof documents)["\n    mutation RestCompleteTask($id: ID!, $result: JSON!) {\n      completeTask(id: $id, result: $result) {\n        ...TaskFields\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RestFailTask($id: ID!, $error: String!) {\n      failTask(id: $id, error: $error) {\n        ...TaskFields\n      }\n    }\n  "): (typeof documents)["\n    mutation RestFailTask($id: ID!, $error: String!) {\n      failTask(id: $id, error: $error) {\n        ...TaskFields\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestRequestTaskInput($id: ID!, $input: InputRequestInput!) {\n        requestTaskInput(id: $id, input: $input) {\n          ...TaskFields\n        }\n      }\n    "): (typeof documents)["\n      mutation RestRequestTaskInput($id: ID!, $input: InputRequestInput!) {\n        requestTaskInput(id: $id, input: $input) {\n          ...TaskFields\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RestApproveTask($id: ID!) {\n      approveTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  "): (typeof documents)["\n    mutation RestApproveTask($id: ID!) {\n      approveTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RestRejectTask($id: ID!, $reason: String!) {\n      rejectTask(id: $id, reason: $reason) {\n        ...TaskFields\n      }\n    }\n  "): (typeof documents)["\n    mutation RestRejectTask($id: ID!, $reason: String!) {\n      rejectTask(id: $id, reason: $reason) {\n        ...TaskFields\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RestRefundTask($id: ID!) {\n      refundTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  "): (typeof documents)["\n    mutation RestRefundTask($id: ID!) {\n      refundTask(id: $id) {\n        ...TaskFields\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RestContestTask($id: ID!, $statement: String!) {\n      contestTask(id: $id, statement: $statement) {\n        ...TaskFields\n      }\n    }\n  "): (typeof documents)["\n    mutation RestContestTask($id: ID!, $statement: String!) {\n      contestTask(id: $id, statement: $statement) {\n        ...TaskFields\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RestTaskHistory($id: ID!) {\n        task(id: $id) {\n          history {\n            at\n            actor\n            actorId\n            action\n            fromStatus\n            toStatus\n            note\n            data\n          }\n        }\n      }\n    "): (typeof documents)["\n      query RestTaskHistory($id: ID!) {\n        task(id: $id) {\n          history {\n            at\n            actor\n            actorId\n            action\n            fromStatus\n            toStatus\n            note\n            data\n          }\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RestTaskCallback($id: ID!, $taskToken: String!, $result: JSON, $error: String, $inputRequired: InputRequestInput) {\n        taskCallback(id: $id, taskToken: $taskToken, result: $result, error: $error, inputRequired: $inputRequired)\n      }\n    "): (typeof documents)["\n      mutation RestTaskCallback($id: ID!, $taskToken: String!, $result: JSON, $error: String, $inputRequired: InputRequestInput) {\n        taskCallback(id: $id, taskToken: $taskToken, result: $result, error: $error, inputRequired: $inputRequired)\n      }\n    "];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;