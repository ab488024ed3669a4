// How numbers and times read on the pages.
export const price = (cents: number): string => (cents === 0 ? 'Free' : `$${(cents / 100).toFixed(2)}`);

export const rating = (avg: number | null | undefined): string => (avg == null ? 'No ratings yet' : `★ ${avg.toFixed(1)} / 5`);

export const percent = (share: number | null | undefined): string => (share == null ? '–' : `${Math.round(share * 100)} %`);

export function duration(ms: number | null | undefined): string {
  if (ms == null) return '–';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '–');

export const label = (value: string): string => value.replace(/_/g, ' ');

export const json = (value: unknown): string => JSON.stringify(value, null, 2);

// The processor's brand names as people write them; an unknown brand is shown as given, capitalised.
const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
};

export interface PaymentShown {
  method: string;
  status: string;
  amountCents: number;
  cardBrand?: string | null;
  cardLast4?: string | null;
  heldAt?: unknown;
}

// "Visa ••4242", or "card" when the processor has not said which card.
export function cardWords(payment: Pick<PaymentShown, 'cardBrand' | 'cardLast4'>): string {
  const { cardBrand, cardLast4 } = payment;
  if (!cardBrand || !cardLast4) return 'card';
  const brand = BRANDS[cardBrand] ?? cardBrand.charAt(0).toUpperCase() + label(cardBrand.slice(1));
  return `${brand} ••${cardLast4}`;
}

// A task's payment in words: "$2.50 held on Visa ••4242", "1 credit used", "Free".
export function paymentWords(payment: PaymentShown | null | undefined): string {
  if (!payment || payment.method === 'free' || (payment.method === 'card' && payment.amountCents === 0)) return 'Free';
  if (payment.method === 'credit') {
    const words: Record<string, string> = {
      pending: '1 credit reserved',
      authorized: '1 credit reserved',
      captured: '1 credit used',
      released: '1 credit returned',
      refunded: '1 credit returned',
    };
    return words[payment.status] ?? `1 credit (${label(payment.status)})`;
  }
  const amount = price(payment.amountCents);
  const card = cardWords(payment);
  const words: Record<string, string> = {
    pending: `${amount} to be held on card, waiting for confirmation`,
    authorized: `${amount} held on ${card}`,
    captured: `${amount} paid by ${card}`,
    // Released without a hold ever standing: the task ended before the card was confirmed, or it was declined.
    released: payment.heldAt ? `${amount} card hold released, nothing charged` : `${amount} never held, nothing charged`,
    refunded: `${amount} refunded to ${card}`,
  };
  return words[payment.status] ?? `${amount} by card (${label(payment.status)})`;
}
