// POST /v1/webhooks/stripe: the processor's events. The signature is checked over the exact bytes
// received (never a re-serialised body); each event id is handled once. A failure answers 500 so the
// processor delivers the event again; a bad signature or an event that can never be handled (a field of
// the wrong shape or size) answers 400 naming the field.
import { readBody } from './body.js';
import { sendJson } from './respond.js';
import type { HttpRoute } from './route.js';
import { invalid } from '../errors.js';
import { WebhookPayloadError, WebhookSignatureError } from '../payments/provider.js';

export function stripeWebhookRoute(payments: { handleWebhook(raw: Buffer, signature: string | undefined): Promise<'processed' | 'duplicate'> }): HttpRoute {
  return {
    method: 'POST',
    path: '/v1/webhooks/stripe',
    // The processor signs the raw body; its deliveries are not counted against any budget.
    credential: 'own',
    admission: 'none',
    openapi: {
      operationId: 'StripeWebhook',
      summary: 'Payment processor events (Stripe), verified over the raw body',
      tags: ['webhooks'],
      security: [],
      parameters: [{ name: 'Stripe-Signature', in: 'header', required: true, schema: { type: 'string' } }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        '200': {
          description: 'Handled (or already handled)',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { received: { type: 'boolean' }, duplicate: { type: 'boolean' } },
                required: ['received', 'duplicate'],
                additionalProperties: false,
              },
            },
          },
        },
        '400': { $ref: '#/components/responses/Error400' },
      },
    },
    async handle({ req, res }) {
      const raw = await readBody(req);
      const header = req.headers['stripe-signature'];
      try {
        const outcome = await payments.handleWebhook(raw, typeof header === 'string' ? header : undefined);
        sendJson(res, 200, { received: true, duplicate: outcome === 'duplicate' });
      } catch (error) {
        if (error instanceof WebhookPayloadError) throw invalid(error.field, error.message);
        if (error instanceof WebhookSignatureError) throw invalid('Stripe-Signature', error.message);
        throw error;
      }
    },
  };
}
