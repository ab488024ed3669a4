import { graphql } from '../../generated/gql/index.js';
import { route } from '../route.js';
import { data } from '../shape.js';

export const receiptRoutes = [
  route({
    method: 'POST',
    path: '/v1/receipts/verify',
    public: true,
    document: graphql(`
      mutation RestVerifyReceipt($receipt: String!) {
        verifyReceipt(receipt: $receipt) {
          valid
          kid
          payload
          reason
        }
      }
    `),
    summary: "Whether a task receipt is genuine: signed by this service with a key it publishes (no credentials needed)",
    request: { body: ['receipt'] },
    answer: { body: data('verifyReceipt') },
  }),
];
