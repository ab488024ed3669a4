// Names people choose that other pages show (an app on the consent page, an account's name, a passkey's):
// without control characters or the invisible marks that reorder text (bidi overrides and isolates), so
// "‮moc.elgoog" cannot be shown as "google.com". The same characters file names lose (files/names.ts).
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

export function displayName(raw: string): string {
  return raw.normalize('NFC').replace(HIDDEN, '').replace(/\s+/g, ' ').trim();
}
