// How numbers and times read on the pages.
export const price = (cents: number): string => (cents === 0 ? 'Free' : `$${(cents / 100).toFixed(2)}`);

export const rating = (avg: number | null | undefined): string => (avg == null ? 'No ratings yet' : `★ ${avg.toFixed(1)} / 5`);

export const percent = (share: number | null | undefined): string => (share == null ? '–' : `${Math.round(share * 100)} %`);

export function duration(ms: number | null | undefined): string {
  if (ms == null) return '–';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  if (ms < 86_400_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${(ms / 86_400_000).toFixed(1)} days`;
}

// Times read as "3 minutes ago" or "in 2 hours" in the browser's language; the exact time, in the
// browser's own format, is shown on hover (components/When.tsx).
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

export function relative(iso: string, now = Date.now()): string {
  const diff = new Date(iso).getTime() - now;
  const words = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (Math.abs(diff) < 45_000) return words.format(0, 'second');
  const [unit, size] = UNITS.find(([, ms]) => Math.abs(diff) >= ms) ?? UNITS.at(-1)!;
  return words.format(Math.round(diff / size), unit);
}

export const exact = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export const when = (iso: string | null | undefined): string => (iso ? relative(iso) : '–');

// Money typed in dollars, sent in cents.
export const dollars = (cents: number): string => (cents / 100).toFixed(2);
export const cents = (dollarsText: number): number => Math.round(dollarsText * 100);

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
