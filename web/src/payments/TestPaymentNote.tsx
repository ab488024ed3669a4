// "Test payment" where money would move, while the processor is simulated or uses Stripe's test keys.
import { usePaymentSettings } from './settings.js';

export function TestPaymentNote({ what = 'payment' }: { what?: string }) {
  const settings = usePaymentSettings();
  if (!settings?.testMode) return null;
  return (
    <p className="test-payment" data-testid="test-payment">
      This is a test {what}: {settings.processor === 'simulated' ? 'the simulated processor' : "Stripe's test mode"} moves no real money.
    </p>
  );
}

// The banner every page shows in test mode.
export function TestModeBanner() {
  const settings = usePaymentSettings();
  if (!settings?.testMode) return null;
  return (
    <div className="test-mode-banner" role="note" aria-label="Payments are in test mode">
      Test mode
    </div>
  );
}
