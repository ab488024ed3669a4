import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { data } from '../shape.js';

export const requesterRecordRoutes = [
  route({
    method: 'GET',
    path: '/v1/requesters/:id/record',
    document: graphql(`
      query RestRequesterRecord($requesterId: ID!) {
        requesterRecord(requesterId: $requesterId) {
          requesterId
          tasks
          reviewed
          approvalRate
          rejectionRate
          disputeRate
          cancellationRate
        }
      }
    `),
    variables: (req) => ({ requesterId: req.params.id! }),
    summary: "A requester's approval, rejection, dispute and cancellation rates (for agent owners)",
    answer: { body: data('requesterRecord') },
  }),
];
