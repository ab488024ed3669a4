// POST /v1/webhooks/stripe: the processor's events. The signature is checked over the exact bytes
// received (never a re-serialised body); each event id is handled once. A failure answers 500 so the
// processor delivers the event again; a bad signature or an event that can never be handled (a field of
// the wrong shape or size) answers 400 naming the field.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './body.js';
import { sendError, sendJson } from './respond.js';
import { WebhookPayloadError, WebhookSignatureError } from '../payments/provider.js';

export function stripeWebhookRoute(payments: { handleWebhook(raw: Buffer, signature: string | undefined): Promise<'processed' | 'duplicate'> }) {
  return {
    method: 'POST',
    path: '/v1/webhooks/stripe',
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
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const raw = await readBody(req);
      const header = req.headers['stripe-signature'];
      try {
        const outcome = await payments.handleWebhook(raw, typeof header === 'string' ? header : undefined);
        sendJson(res, 200, { received: true, duplicate: outcome === 'duplicate' });
      } catch (error) {
        if (error instanceof WebhookPayloadError) return sendError(res, { code: 'INVALID_INPUT', message: error.message, field: error.field });
        if (error instanceof WebhookSignatureError) return sendError(res, { code: 'INVALID_INPUT', message: error.message, field: 'Stripe-Signature' });
        throw error;
      }
    },
  };
}
