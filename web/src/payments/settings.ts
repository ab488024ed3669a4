// The service's payment settings (processor, publishable key, test mode), asked once per page load and
// shared by every page: the test-mode banner, the task page's hold confirmation and the billing pages.
import { useSyncExternalStore } from 'react';
import { gql } from '../api.js';
import type { DashPaymentSettingsQuery } from '../generated/gql/graphql.js';
import { PaymentSettingsQuery } from './documents.js';

export type PaymentSettings = DashPaymentSettingsQuery['paymentSettings'];

let settings: PaymentSettings | null = null;
let asked = false;
const listeners = new Set<() => void>();

function ask(): void {
  if (asked) return;
  asked = true;
  gql(PaymentSettingsQuery).then(
    (d) => {
      settings = d.paymentSettings;
      listeners.forEach((l) => l());
    },
    // Asked again by the next page that needs them.
    () => void (asked = false),
  );
}

// Null until the service has answered.
export function usePaymentSettings(): PaymentSettings | null {
  ask();
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    () => settings,
  );
}
