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

// A task's payment in words: "$2.50 held on card", "1 credit used", "Free".
export function paymentWords(payment: { method: string; status: string; amountCents: number } | null | undefined): string {
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
  const words: Record<string, string> = {
    pending: `${amount} to be held on card, waiting for confirmation`,
    authorized: `${amount} held on card`,
    captured: `${amount} paid by card`,
    released: `${amount} card hold released, nothing charged`,
    refunded: `${amount} refunded to card`,
  };
  return words[payment.status] ?? `${amount} by card (${label(payment.status)})`;
}
