// A signed processor event whose fields can never be handled (a NUL in its type or intent id, an id of
// 500 KB, the wrong kinds of value) is answered 400 naming the field, so the processor stops retrying it,
// and nothing of it is recorded. Before, these reached the database and answered 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedWebhook, startPaymentWorld, type PaymentWorld } from './support/payments.js';

describe.each(['simulated', 'stripe'] as const)('processor events with bad fields (%s)', (provider) => {
  let world: PaymentWorld;

  beforeAll(async () => {
    world = await startPaymentWorld(provider);
  });

  afterAll(async () => {
    await world?.close();
  });

  const post = async (event: unknown) => {
    const payload = JSON.stringify(event);
    const res = await fetch(`${world.server.url}/v1/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signedWebhook(payload) },
      body: payload,
    });
    return { status: res.status, body: (await res.json()) as { error?: { code: string; field?: string } } };
  };
  const intent = (object: Record<string, unknown>) => ({ object: 'payment_intent', status: 'requires_capture', ...object });

  it.each([
    ['a NUL in the event type', { id: 'evt_nul_type', type: 'payment_intent.\u0000canceled', data: { object: intent({ id: 'pi_1' }) } }, 'type'],
    ['a NUL in the intent id', { id: 'evt_nul_intent', type: 'payment_intent.canceled', data: { object: intent({ id: 'pi_\u00001' }) } }, 'data.object.id'],
    ['a NUL in the event id', { id: 'evt_\u0000', type: 'payment_intent.canceled', data: { object: intent({ id: 'pi_1' }) } }, 'id'],
    ['an event id of 500 KB', { id: `evt_${'a'.repeat(500_000)}`, type: 'payment_intent.canceled', data: { object: intent({ id: 'pi_1' }) } }, 'id'],
    ['a related intent id of 500 KB', { id: 'evt_long_related', type: 'charge.refunded', data: { object: { object: 'charge', id: 'ch_1', payment_intent: 'pi_'.padEnd(500_000, 'b') } } }, 'data.object.payment_intent'],
    ['an object that is a number', { id: 'evt_number', type: 'payment_intent.canceled', data: { object: 42 } }, 'data.object'],
    ['an array for the event', [1, 2, 3], 'body'],
  ])('%s answers 400 naming the field', async (_what, event, field) => {
    const res = await post(event);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field });
    expect(await world.server.prisma.processedWebhookEvent.count()).toBe(0);
  });

  it('still handles a well-formed event', async () => {
    const res = await post({ id: 'evt_fine_1', type: 'payment_intent.canceled', data: { object: intent({ id: 'pi_unknown_1', status: 'canceled' }) } });
    expect(res).toEqual({ status: 200, body: { received: true, duplicate: false } });
  });
});
