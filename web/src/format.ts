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
