// Stripe.js, loaded from Stripe itself when a page first needs it: Stripe requires it be served from
// js.stripe.com (never bundled or proxied) so that card details are collected by Stripe's own code, in
// Stripe's frames, and never pass through this page's scripts or the service. Only the calls the
// dashboard makes are typed here.
export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

export interface StripeError {
  type?: string;
  code?: string;
  message?: string;
}

export interface StripePaymentElement {
  mount(target: HTMLElement): void;
  destroy(): void;
  on(event: 'ready' | 'change', handler: (event: { complete?: boolean }) => void): void;
}

export interface StripeElements {
  create(type: 'payment', options?: Record<string, unknown>): StripePaymentElement;
  submit(): Promise<{ error?: StripeError }>;
}

export interface StripeClient {
  elements(options: { clientSecret: string; appearance?: Record<string, unknown> }): StripeElements;
  confirmPayment(options: {
    elements: StripeElements;
    redirect: 'if_required';
    confirmParams: { return_url: string };
  }): Promise<{ error?: StripeError; paymentIntent?: { id: string; status: string } }>;
  confirmSetup(options: {
    elements: StripeElements;
    redirect: 'if_required';
    confirmParams: { return_url: string };
  }): Promise<{ error?: StripeError; setupIntent?: { id: string; status: string; payment_method: string | { id: string } | null } }>;
}

type StripeFactory = (publishableKey: string) => StripeClient;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

let loading: Promise<StripeFactory> | null = null;

function loadScript(): Promise<StripeFactory> {
  return new Promise((resolve, reject) => {
    if (window.Stripe) return resolve(window.Stripe);
    const script = document.createElement('script');
    script.src = STRIPE_JS_URL;
    script.async = true;
    script.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js loaded but did not start')));
    script.onerror = () => reject(new Error('Stripe.js could not be loaded from js.stripe.com; check the connection and try again'));
    document.head.appendChild(script);
  });
}

const clients = new Map<string, StripeClient>();

// One Stripe client per publishable key, as Stripe advises; a failed load is tried again next time.
export async function stripeClient(publishableKey: string): Promise<StripeClient> {
  loading ??= loadScript().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  const factory = await loading;
  let client = clients.get(publishableKey);
  if (!client) {
    client = factory(publishableKey);
    clients.set(publishableKey, client);
  }
  return client;
}
