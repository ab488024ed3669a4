// /billing, for requesters: the card on file (save, replace, remove: a SetupIntent confirmed in Stripe's
// Payment Element, or the simulated processor's test form), credit balances per agent with buying more,
// what was spent this month, and the history of paid tasks with each one's processor receipt.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { gql, errorText } from '../api.js';
import { cardWords, label, price } from '../format.js';
import type { DashBillingPageQuery } from '../generated/gql/graphql.js';

type DashBillingFragment = DashBillingPageQuery['billing'];
import { Link, useLocation } from '../router.js';
import { Empty, ErrorNote, LoadError, PageTitle, Skeleton } from '../components/ui.js';
import { When } from '../components/When.js';
import { BillingQuery, BuyCreditsMutation, BuyForAgentQuery, CreateSetupIntentMutation, RemoveCardMutation, SetDefaultCardMutation } from '../payments/documents.js';
import { StripeCardForm, TestCardForm } from '../payments/CardEntry.js';
import { usePaymentSettings } from '../payments/settings.js';
import { TestPaymentNote } from '../payments/TestPaymentNote.js';

export function BillingTabs({ current }: { current: 'billing' | 'payouts' }) {
  return (
    <nav aria-label="Billing" className="tabs billing-tabs">
      <Link href="/billing" aria-current={current === 'billing' ? 'page' : undefined}>
        Payments
      </Link>
      <Link href="/billing/payouts" aria-current={current === 'payouts' ? 'page' : undefined}>
        Payouts
      </Link>
    </nav>
  );
}

export function Billing() {
  const [billing, setBilling] = useState<DashBillingFragment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    gql(BillingQuery).then(
      (d) => setBilling(d.billing),
      (e: unknown) => setError(errorText(e)),
    );
  useEffect(() => void load(), []);

  if (!billing) return error ? <LoadError error={error} what="Billing" retry={() => void load()} /> : <Skeleton lines={6} what="billing" />;
  return (
    <section className="billing">
      <PageTitle>Billing</PageTitle>
      <BillingTabs current="billing" />
      <TestPaymentNote what="payment setup" />
      <div className="billing-grid">
        <CardOnFile billing={billing} onChange={(card) => setBilling({ ...billing, card })} />
        <section aria-labelledby="spent" className="panel">
          <h2 id="spent">This month</h2>
          <p className="figure" data-testid="spent-this-month">
            {money(billing.spentThisMonthCents)}
          </p>
          <p className="muted">Charged this calendar month (UTC): completed card payments and credit purchases.</p>
        </section>
      </div>
      <Credits billing={billing} onBought={() => void load()} />
      <History payments={billing.payments} />
    </section>
  );
}

// Amounts in dollars and cents, $0.00 included.
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function CardOnFile({ billing, onChange }: { billing: DashBillingFragment; onChange: (card: DashBillingFragment['card']) => void }) {
  const settings = usePaymentSettings();
  const [setupSecret, setSetupSecret] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    setError(null);
    setAdding(true);
    // Stripe collects the card against a SetupIntent; the simulated processor needs none.
    if (settings?.processor === 'stripe') {
      try {
        setSetupSecret((await gql(CreateSetupIntentMutation)).createSetupIntent.clientSecret);
      } catch (e) {
        setError(errorText(e));
        setAdding(false);
      }
    }
  }

  async function save(paymentMethodId: string | null) {
    if (!paymentMethodId) throw new Error('The processor did not say which card was saved');
    onChange((await gql(SetDefaultCardMutation, { input: { paymentMethodId } })).setDefaultPaymentMethod.card);
    setAdding(false);
    setSetupSecret(null);
  }

  async function remove() {
    if (!window.confirm('Remove the saved card? Later paid tasks will wait for you to confirm each payment.')) return;
    setBusy(true);
    setError(null);
    try {
      onChange((await gql(RemoveCardMutation)).removePaymentMethod.card);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="card" className="panel">
      <h2 id="card">Card on file</h2>
      {billing.card ? (
        <p data-testid="card-on-file">
          <strong>{cardWords({ cardBrand: billing.card.brand, cardLast4: billing.card.last4 })}</strong>. Paid tasks are held on it at once.
        </p>
      ) : (
        <p data-testid="card-on-file">No card saved. Each paid task waits for you to confirm its payment.</p>
      )}
      <ErrorNote error={error} />
      {adding ? (
        settings?.processor === 'stripe' && settings.publishableKey ? (
          setupSecret ? (
            <StripeCardForm publishableKey={settings.publishableKey} clientSecret={setupSecret} kind="setup" submitLabel="Save card" onConfirmed={save} />
          ) : (
            <p className="muted">Loading…</p>
          )
        ) : (
          <TestCardForm submitLabel="Save test card" onSubmit={save} />
        )
      ) : (
        <div className="row-actions">
          <button type="button" onClick={() => void start()}>
            {billing.card ? 'Replace card' : 'Save a card'}
          </button>
          {billing.card && (
            <button type="button" className="danger" disabled={busy} onClick={() => void remove()}>
              Remove card
            </button>
          )}
        </div>
      )}
    </section>
  );
}

// Works outside secure contexts too (crypto.randomUUID does not).
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dash-buy-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

interface Buyable {
  id: string;
  name: string;
  slug: string;
  priceCents: number;
  balance: number;
}

function Credits({ billing, onBought }: { billing: DashBillingFragment; onBought: () => void }) {
  const { search } = useLocation();
  const wanted = search.get('agent');
  const [extra, setExtra] = useState<Buyable | null>(null);
  useEffect(() => {
    if (!wanted) return;
    gql(BuyForAgentQuery, { slugOrId: wanted }).then(
      (d) => setExtra({ ...d.agent, balance: 0 }),
      () => setExtra(null),
    );
  }, [wanted]);
  const rows: Buyable[] = billing.credits.map((c) => ({ ...c.agent, balance: c.balance }));
  if (extra && !rows.some((r) => r.id === extra.id)) rows.unshift(extra);
  return (
    <section aria-labelledby="credits">
      <h2 id="credits">Credits</h2>
      <p className="muted">A credit pays for one task of its agent, bought ahead with the saved card. An agent&apos;s page links here to buy its first ones.</p>
      {rows.length === 0 ? (
        <Empty title="No credits yet">Open a paid agent&apos;s page and choose Buy credits.</Empty>
      ) : (
        <ul className="credit-list">
          {rows.map((row) => (
            <CreditRow key={row.id} row={row} canBuy={billing.card !== null} onBought={onBought} />
          ))}
        </ul>
      )}
    </section>
  );
}

function CreditRow({ row, canBuy, onBought }: { row: Buyable; canBuy: boolean; onBought: () => void }) {
  const [quantity, setQuantity] = useState('5');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Kept until a purchase succeeds, so a retry after a lost answer charges once.
  const key = useRef(newKey());
  const count = Number(quantity);
  const valid = Number.isInteger(count) && count >= 1 && count <= 1000;
  const inputId = `buy-${row.id}`;

  async function buy(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const bought = (await gql(BuyCreditsMutation, { input: { agentId: row.id, quantity: count }, idempotencyKey: key.current })).buyCredits;
      key.current = newKey();
      setDone(`Bought ${bought.quantity} for ${money(bought.amountCents)}; balance ${bought.balance}.`);
      onBought();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="credit-row">
      <span>
        <Link href={`/agents/${encodeURIComponent(row.slug)}`}>{row.name}</Link> <span className="muted">({price(row.priceCents)} a task)</span>
      </span>
      <span data-testid={`credits-${row.slug}`}>
        {row.balance} {row.balance === 1 ? 'credit' : 'credits'}
      </span>
      <form className="buy" onSubmit={(e) => void buy(e)}>
        <label htmlFor={inputId}>Credits to buy for {row.name}</label>
        <input id={inputId} type="number" min={1} max={1000} step={1} value={quantity} onChange={(e) => setQuantity(e.target.value)} />
        <button type="submit" disabled={!valid || busy || !canBuy}>
          Buy{valid ? ` for ${money(count * row.priceCents)}` : ''}
        </button>
      </form>
      {!canBuy && <p className="muted small">Save a card first.</p>}
      {done && (
        <p role="status" className="ok small">
          {done}
        </p>
      )}
      <ErrorNote error={error} />
    </li>
  );
}

type PaymentRow = DashBillingFragment['payments'][number];

function methodWords(p: PaymentRow): string {
  if (p.method === 'credit') return '1 credit';
  return cardWords({ cardBrand: p.cardBrand, cardLast4: p.cardLast4 });
}

function History({ payments }: { payments: PaymentRow[] }) {
  return (
    <section aria-labelledby="history">
      <h2 id="history">Payment history</h2>
      {payments.length === 0 ? (
        <Empty title="No payments yet">Tasks you pay for are listed here.</Empty>
      ) : (
        <div className="table-scroll" role="region" aria-labelledby="history" tabIndex={0}>
          <table className="history">
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Agent</th>
                <th scope="col">Amount</th>
                <th scope="col">Method</th>
                <th scope="col">Status</th>
                <th scope="col">Held</th>
                <th scope="col">Settled</th>
                <th scope="col">Receipt</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr key={p.taskId}>
                  <td>
                    <Link href={`/tasks/${encodeURIComponent(p.taskId)}`}>{p.taskTitle}</Link>
                  </td>
                  <td>{p.agentSlug ? <Link href={`/agents/${encodeURIComponent(p.agentSlug)}`}>{p.agentName}</Link> : (p.agentName ?? '–')}</td>
                  <td>{money(p.amountCents)}</td>
                  <td>{methodWords(p)}</td>
                  <td>{label(p.status === 'authorized' ? 'held' : p.status === 'pending' ? 'waiting for confirmation' : p.status)}</td>
                  <td>
                    <When at={p.heldAt} />
                  </td>
                  <td>
                    <When at={p.settledAt} />
                  </td>
                  <td>
                    {p.receiptUrl ? (
                      <a href={p.receiptUrl} target="_blank" rel="noopener noreferrer">
                        Receipt<span className="visually-hidden"> for {p.taskTitle}</span>
                      </a>
                    ) : (
                      '–'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
