// On a task waiting for its card hold, for the requester: confirm it with the processor's client library
// (Stripe's Payment Element, 3-D Secure included), or the simulated processor's test form. A declined or
// abandoned attempt leaves the task pending and this form in place, so trying again is the same button;
// once the processor places the hold, the task page's live subscription moves the task on by itself.
import { useCallback, useEffect, useState } from 'react';
import { gql, errorText } from '../api.js';
import { SimulateConfirmMutation } from '../documents.js';
import { price } from '../format.js';
import { Link } from '../router.js';
import { HoldConfirmationQuery } from './documents.js';
import { StripeCardForm, TestCardForm } from './CardEntry.js';
import { usePaymentSettings } from './settings.js';
import { TestPaymentNote } from './TestPaymentNote.js';

export function ConfirmHold({ taskId }: { taskId: string }) {
  const settings = usePaymentSettings();
  const [hold, setHold] = useState<{ clientSecret: string; amountCents: number } | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);

  const load = useCallback(() => {
    setError(null);
    gql(HoldConfirmationQuery, { taskId }).then(
      (d) => setHold(d.taskHoldConfirmation ?? null),
      (e: unknown) => setError(errorText(e)),
    );
  }, [taskId]);
  useEffect(load, [load]);

  return (
    <section aria-labelledby="pay" className="confirm-hold">
      <h2 id="pay">{hold ? `Pay ${price(hold.amountCents)} by card` : 'Card payment'}</h2>
      <TestPaymentNote />
      {error && <p className="error" role="alert">{error}</p>}
      {!settings || hold === undefined ? (
        <p className="muted">Loading the payment…</p>
      ) : hold === null ? (
        <p>
          The card hold is still being prepared.{' '}
          <button type="button" className="link" onClick={load}>
            Check again
          </button>
        </p>
      ) : confirmed ? (
        <p role="status">Card confirmed. Waiting for the payment processor to place the hold; this page updates by itself.</p>
      ) : (
        <>
          <p className="muted">
            The amount is held on your card now, charged only when the task completes, and released if it does not. The task waits here until
            the hold stands. <Link href="/billing">Save a card</Link> to have later tasks held at once.
          </p>
          {settings.processor === 'stripe' && settings.publishableKey ? (
            <StripeCardForm publishableKey={settings.publishableKey} clientSecret={hold.clientSecret} kind="payment" submitLabel="Confirm payment" onConfirmed={() => setConfirmed(true)} />
          ) : (
            <TestCardForm
              submitLabel="Confirm test payment"
              onSubmit={async (paymentMethodId) => {
                await gql(SimulateConfirmMutation, { input: { clientSecret: hold.clientSecret, paymentMethodId } });
                setConfirmed(true);
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
