import { describe, expect, it } from 'vitest';
import {
  buildDeliveryPayload,
  deliveryHeaders,
  serializePayload,
  type DeliverableTask,
} from '../../../src/delivery/payload.js';
import { standardWebhookHeaders, verifyServiceSignature } from '../../../src/delivery/signing.js';

const task: DeliverableTask = {
  id: 'task_1',
  title: 'Summarise',
  description: 'Summarise the document',
  input: { url: 'https://example.com/doc.pdf', pages: 3 },
  capabilities: ['summarise', 'pdf'],
  priority: 'high',
  expiresAt: new Date('2026-03-01T12:30:00+02:00'),
  inputHash: 'ab'.repeat(32),
};
const callbackUrl = 'https://api.example.com/v1/tasks/task_1/callback';

describe('buildDeliveryPayload', () => {
  it('has exactly the spec fields, in the spec order, then the input hash', () => {
    const payload = buildDeliveryPayload(task, 'tok_secret', callbackUrl);
    expect(Object.keys(payload)).toEqual([
      'taskId',
      'taskToken',
      'title',
      'description',
      'input',
      'callbackUrl',
      'capabilities',
      'priority',
      'expiresAt',
      'inputHash',
    ]);
    expect(payload).toEqual({
      taskId: 'task_1',
      taskToken: 'tok_secret',
      title: 'Summarise',
      description: 'Summarise the document',
      input: { url: 'https://example.com/doc.pdf', pages: 3 },
      callbackUrl,
      capabilities: ['summarise', 'pdf'],
      priority: 'high',
      expiresAt: '2026-03-01T10:30:00.000Z',
      inputHash: 'ab'.repeat(32),
    });
  });

  it('does not copy extra fields of the task record', () => {
    const record = { ...task, ownerId: 'user_9', amountCents: 500 };
    expect(Object.keys(buildDeliveryPayload(record, 't', callbackUrl))).not.toContain('ownerId');
  });

  it.each([null, undefined])('sends {} when the input is %s', (input) => {
    expect(buildDeliveryPayload({ ...task, input }, 't', callbackUrl).input).toEqual({});
  });

  it.each([[['a']], ['text'], [42]])('refuses an input that is not an object: %j', (input) => {
    expect(() => buildDeliveryPayload({ ...task, input }, 't', callbackUrl)).toThrow(TypeError);
  });
});

describe('serializePayload', () => {
  it('is the UTF-8 JSON of the payload', () => {
    const payload = buildDeliveryPayload({ ...task, title: 'Résumé ✓' }, 't', callbackUrl);
    const bytes = serializePayload(payload);
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(payload);
    expect(bytes.toString('utf8')).toContain('Résumé ✓');
  });
});

describe('deliveryHeaders', () => {
  const now = new Date('2026-02-01T08:00:00.250Z');
  const body = serializePayload(buildDeliveryPayload(task, 'tok', callbackUrl));
  const base = { taskId: 'task_1', callbackUrl, now, deliveryId: 'dlv_1', body };

  it('carries no signature while no secret is set', () => {
    expect(deliveryHeaders({ ...base, secret: null })).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'Service/1.0',
      'X-Service-Task-Id': 'task_1',
      'X-Service-Callback': callbackUrl,
      'X-Service-Timestamp': '2026-02-01T08:00:00.250Z',
      'X-Service-Event': 'task.assigned',
    });
  });

  it('names the event of an answer to an input request', () => {
    expect(deliveryHeaders({ ...base, event: 'task.input', secret: null })['X-Service-Event']).toBe('task.input');
  });

  it('signs the exact body bytes both ways while a secret is set', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const headers = deliveryHeaders({ ...base, secret });

    expect(verifyServiceSignature(secret, body, headers['X-Service-Signature'])).toBe(true);
    // Standard Webhooks timestamps are whole seconds of the same instant.
    expect(headers).toMatchObject(standardWebhookHeaders(secret, 'dlv_1', 1769932800, body));
    expect(Object.keys(headers).sort()).toEqual(
      [
        'Content-Type',
        'User-Agent',
        'X-Service-Task-Id',
        'X-Service-Callback',
        'X-Service-Timestamp',
        'X-Service-Event',
        'X-Service-Signature',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ].sort(),
    );
  });
});
