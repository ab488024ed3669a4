// Taking a card: Stripe's Payment Element, in Stripe's own frame, confirms a PaymentIntent (a task's hold)
// or a SetupIntent (a card saved for later); nothing of the card passes through this page's code or the
// service, which learns only the processor's ids. With the simulated processor, a plainly labelled test
// form picks one of the processor's test cards instead.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { errorText } from '../api.js';
import { stripeClient, type StripeClient, type StripeElements } from './stripe-js.js';

export type IntentKind = 'payment' | 'setup';

// The payment method a confirmed SetupIntent saved (its id only).
function methodIdOf(method: string | { id: string } | null | undefined): string | null {
  if (!method) return null;
  return typeof method === 'string' ? method : method.id;
}

export function StripeCardForm({
  publishableKey,
  clientSecret,
  kind,
  submitLabel,
  onConfirmed,
}: {
  publishableKey: string;
  clientSecret: string;
  kind: IntentKind;
  submitLabel: string;
  // After Stripe confirmed: for a SetupIntent, the saved method's id.
  onConfirmed: (paymentMethodId: string | null) => Promise<void> | void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<{ client: StripeClient; elements: StripeElements } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | null = null;
    stripeClient(publishableKey).then(
      (client) => {
        if (cancelled || !box.current) return;
        const elements = client.elements({ clientSecret });
        const element = elements.create('payment');
        element.mount(box.current);
        destroy = () => element.destroy();
        setStripe({ client, elements });
      },
      (e: unknown) => setError(errorText(e)),
    );
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [publishableKey, clientSecret]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!stripe) return;
    setBusy(true);
    setError(null);
    try {
      // Cards with 3-D Secure are authenticated in Stripe's own window; redirect only for methods that must.
      const options = { elements: stripe.elements, redirect: 'if_required' as const, confirmParams: { return_url: location.href } };
      if (kind === 'payment') {
        const result = await stripe.client.confirmPayment(options);
        if (result.error) throw new Error(result.error.message ?? 'The card could not be confirmed');
        await onConfirmed(null);
      } else {
        const result = await stripe.client.confirmSetup(options);
        if (result.error) throw new Error(result.error.message ?? 'The card could not be saved');
        await onConfirmed(methodIdOf(result.setupIntent?.payment_method));
      }
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card-entry" onSubmit={(e) => void submit(e)}>
      <div ref={box} className="stripe-element" data-testid="payment-element" />
      {error && (
        <p className="error" role="alert">
          {error} Nothing was charged. Check the details or use another card, then try again.
        </p>
      )}
      <button type="submit" disabled={!stripe || busy}>
        {busy ? 'Confirming…' : error ? `Try again: ${submitLabel.toLowerCase()}` : submitLabel}
      </button>
    </form>
  );
}

// The simulated processor's test cards (Stripe's test payment method ids, which it understands).
const TEST_CARDS = [
  { id: 'pm_card_visa', words: 'Visa ••4242, succeeds' },
  { id: 'pm_card_declined', words: 'A card that is declined' },
] as const;

export function TestCardForm({ submitLabel, onSubmit }: { submitLabel: string; onSubmit: (paymentMethodId: string) => Promise<void> }) {
  const [card, setCard] = useState<string>(TEST_CARDS[0].id);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit(card);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card-entry test-card" onSubmit={(e) => void submit(e)}>
      <fieldset>
        <legend>Test card (simulated processor: no real card, no money moves)</legend>
        {TEST_CARDS.map((c) => (
          <label key={c.id} className="choice">
            <input type="radio" name="test-card" value={c.id} checked={card === c.id} onChange={() => setCard(c.id)} /> {c.words}
          </label>
        ))}
      </fieldset>
      {error && (
        <p className="error" role="alert">
          {error} Nothing was charged. Choose another card and try again.
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Confirming…' : submitLabel}
      </button>
    </form>
  );
}
