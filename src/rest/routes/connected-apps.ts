// /v1/account/apps: the apps a user connected through OAuth, and disconnecting one.
import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { constant, data, object, param } from '../shape.js';

export const connectedAppRoutes = [
  route({
    method: 'GET',
    path: '/v1/account/apps',
    document: graphql(`
      query RestConnectedApps {
        connectedApps {
          clientId
          name
          redirectHosts
          scopes
          connectedAt
          lastUsedAt
        }
      }
    `),
    summary: 'Apps connected to the account through OAuth',
    answer: { body: data('connectedApps') },
  }),
  route({
    method: 'DELETE',
    path: '/v1/account/apps/:clientId',
    document: graphql(`
      mutation RestDisconnectApp($clientId: ID!) {
        disconnectApp(clientId: $clientId)
      }
    `),
    summary: 'Disconnect an app: its tokens stop working at once',
    answer: { body: object({ message: constant('App disconnected'), data: object({ clientId: param('clientId') }) }) },
  }),
];
