// Delivery health at a glance, from an agent's recent delivery attempts: the share answered 2xx, the
// median and slowest latency, and a small chart of the attempts in order (height: latency; colour:
// answered or failed). The figures are written out as well as drawn.
import type { DashDeliveriesQuery } from '../generated/gql/graphql.js';
import { duration, percent } from '../format.js';

type Delivery = DashDeliveriesQuery['agentDeliveries'][number];
interface Attempt {
  at: string;
  ok: boolean;
  latencyMs: number;
}

export function attemptsOf(deliveries: readonly Delivery[]): Attempt[] {
  return deliveries
    .flatMap((d) => d.attempts.map((a) => ({ at: a.at as string, ok: a.statusCode != null && a.statusCode >= 200 && a.statusCode < 300, latencyMs: a.latencyMs })))
    .sort((a, b) => a.at.localeCompare(b.at));
}

export function healthOf(attempts: readonly Attempt[]) {
  if (attempts.length === 0) return null;
  const ok = attempts.filter((a) => a.ok).length;
  const latencies = attempts.map((a) => a.latencyMs).sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { attempts: attempts.length, successRate: ok / attempts.length, p50: at(0.5), p95: at(0.95) };
}

export function HealthSummary({ deliveries }: { deliveries: readonly Delivery[] | null }) {
  if (deliveries === null) return <span className="muted">Deliveries: checking…</span>;
  const attempts = attemptsOf(deliveries);
  const health = healthOf(attempts);
  if (!health) return <span className="muted">Deliveries: none yet</span>;
  const tone = health.successRate >= 0.95 ? 'good' : health.successRate >= 0.7 ? 'fair' : 'poor';
  return (
    <span className="health-line">
      <span className={`dot dot-${tone}`} aria-hidden="true" />
      Deliveries: {percent(health.successRate)} answered · median {duration(health.p50)} · {health.attempts} attempt{health.attempts === 1 ? '' : 's'}
      <Spark attempts={attempts.slice(-30)} />
    </span>
  );
}

function Spark({ attempts, width = 120, height = 22, slots = 10 }: { attempts: readonly Attempt[]; width?: number; height?: number; slots?: number }) {
  const slowest = Math.max(...attempts.map((a) => a.latencyMs), 1);
  const step = width / Math.max(attempts.length, slots);
  return (
    <svg className="spark" width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true" focusable="false">
      {attempts.map((a, i) => {
        const h = Math.max(3, (a.latencyMs / slowest) * (height - 2));
        return <rect key={i} x={i * step} y={height - h} width={Math.max(2, step - 2)} height={h} rx="1" fill={a.ok ? '#047857' : '#b91c1c'} />;
      })}
    </svg>
  );
}

// The owner's agent page: the figures and a larger chart of each attempt's latency over time.
export function DeliveryHealth({ deliveries }: { deliveries: readonly Delivery[] }) {
  const attempts = attemptsOf(deliveries);
  const health = healthOf(attempts);
  if (!health) return null;
  return (
    <div className="delivery-health">
      <dl className="facts">
        <div>
          <dt>Answered 2xx</dt>
          <dd>{percent(health.successRate)}</dd>
        </div>
        <div>
          <dt>Median latency</dt>
          <dd>{duration(health.p50)}</dd>
        </div>
        <div>
          <dt>p95 latency</dt>
          <dd>{duration(health.p95)}</dd>
        </div>
        <div>
          <dt>Attempts</dt>
          <dd>{health.attempts}</dd>
        </div>
      </dl>
      <figure className="health-chart">
        <Spark attempts={attempts.slice(-60)} width={480} height={60} slots={40} />
        <figcaption className="muted small">Each bar is one attempt, oldest left: its height is the latency, green answered 2xx, red failed.</figcaption>
      </figure>
    </div>
  );
}
