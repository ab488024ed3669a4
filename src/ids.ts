import { randomText } from './crypto/random-text.js';

// Sortable, prefixed identifiers: a millisecond timestamp then 80 random bits, so ids order by creation
// and a glance tells what kind of record an id names.
export function newId(prefix: string): string {
  const time = Date.now().toString(36).padStart(9, '0');
  return `${prefix}_${time}${randomText(10, 'hex')}`;
}
