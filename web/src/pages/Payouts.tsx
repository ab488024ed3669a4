// /billing/payouts, for agent owners: payout onboarding (start, resume, and where it stands as the
// processor says), what the agents earned per task with the platform's fee, what is owed and what was
// transferred, and where each transfer stands. The processor's hosted onboarding returns here.
import { useEffect, useState } from 'react';
import { gql, errorText } from '../api.js';
import type { DashPayoutsQuery } from '../generated/gql/graphql.js';
import { useLocation } from '../router.js';
import { Empty, ErrorNote, LoadError, PageTitle, Skeleton } from '../components/ui.js';
import { When } from '../components/When.js';
import { PayoutsQuery, StartPayoutOnboardingMutation } from '../payments/documents.js';
import { TestPaymentNote } from '../payments/TestPaymentNote.js';
import { BillingTabs } from './Billing.js';

type Payouts = DashPayoutsQuery['billing']['payouts'];

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const ONBOARDING: Record<Payouts['onboarding'], { words: string; action: string | null }> = {
  not_started: { words: 'Not set up. Set up payouts to receive your share of completed tasks.', action: 'Set up payouts' },
  details_needed: { words: 'Details needed: the payment processor still needs information from you.', action: 'Continue setup' },
  pending: { words: 'Pending: the payment processor is checking your details.', action: 'Update details' },
  enabled: { words: 'Enabled: your share of each completed task is transferred to you.', action: null },
};

const TRANSFER: Record<Payouts['earnings'][number]['transfer'], string> = {
  owed: 'Owed',
  transferred: 'Transferred',
  not_payable: 'Not payable (the capture failed)',
};

export function Payouts() {
  const { search } = useLocation();
  const back = search.get('onboarding');
  const [payouts, setPayouts] = useState<Payouts | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = () =>
    gql(PayoutsQuery).then(
      (d) => setPayouts(d.billing.payouts),
      (e: unknown) => setError(errorText(e)),
    );
  useEffect(() => void load(), []);

  async function onboard() {
    setBusy(true);
    setError(null);
    try {
      const { url } = (await gql(StartPayoutOnboardingMutation)).startPayoutOnboarding;
      // The processor's hosted onboarding, which sends the owner back here.
      location.assign(url);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }

  if (!payouts) return error ? <LoadError error={error} what="Payouts" retry={() => void load()} /> : <Skeleton lines={6} what="payouts" />;
  const state = ONBOARDING[payouts.onboarding];
  return (
    <section className="billing payouts">
      <PageTitle>Payouts</PageTitle>
      <BillingTabs current="payouts" />
      <TestPaymentNote what="payout" />
      {back === 'refresh' && <p className="note">The setup link expired before it was finished. Continue the setup to get a new one.</p>}
      {back === 'done' && <p className="note">Back from payout setup. Where it stands is below.</p>}
      <div className="billing-grid">
        <section aria-labelledby="onboarding" className="panel">
          <h2 id="onboarding">Payout account</h2>
          <p data-testid="onboarding-state">{state.words}</p>
          {state.action && (
            <button type="button" disabled={busy} onClick={() => void onboard()}>
              {state.action}
            </button>
          )}
          <ErrorNote error={error} />
        </section>
        <section aria-labelledby="totals" className="panel">
          <h2 id="totals">Totals</h2>
          <dl className="details">
            <dt>Owed to you</dt>
            <dd data-testid="owed">{money(payouts.owedCents)}</dd>
            <dt>Transferred</dt>
            <dd data-testid="transferred">{money(payouts.transferredCents)}</dd>
          </dl>
        </section>
      </div>
      <section aria-labelledby="earnings">
        <h2 id="earnings">Earnings</h2>
        {payouts.earnings.length === 0 ? (
          <Empty title="No earnings yet">Completed tasks paid by card appear here with the platform&apos;s fee and your share.</Empty>
        ) : (
          <div className="table-scroll" role="region" aria-labelledby="earnings" tabIndex={0}>
            <table className="history">
              <thead>
                <tr>
                  <th scope="col">Task</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Price</th>
                  <th scope="col">Platform fee</th>
                  <th scope="col">Your share</th>
                  <th scope="col">Completed</th>
                  <th scope="col">Transfer</th>
                </tr>
              </thead>
              <tbody>
                {payouts.earnings.map((e) => (
                  <tr key={e.taskId}>
                    <td>{e.taskTitle}</td>
                    <td>{e.agentName ?? '–'}</td>
                    <td>{money(e.amountCents)}</td>
                    <td>{money(e.feeCents)}</td>
                    <td>{money(e.netCents)}</td>
                    <td>
                      <When at={e.capturedAt} />
                    </td>
                    <td>
                      {TRANSFER[e.transfer]}
                      {e.transferredAt && (
                        <>
                          {' '}
                          <When at={e.transferredAt} />
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </section>
  );
}
