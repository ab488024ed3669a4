// An agent's track record as small inline SVG charts: finished tasks per day, all-time completed and
// failed tasks as one stacked bar, the recent success rate as a gauge, and the median and 95th percentile completion
// times on one scale. The figures are also written out, so the chart is decoration for sighted users
// and the text is what screen readers read. Every figure counts the same tasks (the service's
// src/reputation/counted-tasks.ts): finished = completed + failed, per day as all time.
import { duration, percent } from '../format.js';

export interface Record {
  taskCount: number;
  completedCount: number;
  failedCount: number;
  stats: { successRate?: number | null; p50CompletionMs?: number | null; p95CompletionMs?: number | null; recentTasks: number };
  daily?: readonly { day: string; completed: number; failed: number }[];
}

// Finished tasks per day: one stacked bar a day (completed below, failed above), today on the right.
function PerDay({ days }: { days: readonly { day: string; completed: number; failed: number }[] }) {
  const most = Math.max(1, ...days.map((d) => d.completed + d.failed));
  const slot = W / days.length;
  const H = 48;
  const completed = days.reduce((sum, d) => sum + d.completed, 0);
  const failed = days.reduce((sum, d) => sum + d.failed, 0);
  return (
    <figure className="record-item wide">
      <figcaption>
        Tasks per day, last {days.length} days: <strong>{completed + failed}</strong> finished ({completed} completed, {failed} failed)
      </figcaption>
      <svg className="chart" viewBox={`0 0 ${W} ${H}`} width="100%" height={H} preserveAspectRatio="none" role="img" aria-label={days.map((d) => `${d.day}: ${d.completed} completed, ${d.failed} failed`).join('; ')}>
        {days.map((d, i) => {
          const ok = (d.completed / most) * (H - 2);
          const bad = (d.failed / most) * (H - 2);
          return (
            <g key={d.day}>
              <rect x={i * slot + 1} y={H - 1} width={slot - 2} height="1" fill="#d1d5db" />
              {ok > 0 && <rect x={i * slot + 1} y={H - ok} width={slot - 2} height={ok} fill="#047857" />}
              {bad > 0 && <rect x={i * slot + 1} y={H - ok - bad} width={slot - 2} height={bad} fill="#b91c1c" />}
            </g>
          );
        })}
      </svg>
      <div className="chart-axis muted small">
        <span>{days[0]?.day.slice(5)}</span>
        <span>today</span>
      </div>
    </figure>
  );
}

const W = 240;

function Bar({ parts, label }: { parts: { value: number; colour: string }[]; label: string }) {
  const total = parts.reduce((sum, p) => sum + p.value, 0) || 1;
  let x = 0;
  return (
    <svg className="chart" viewBox={`0 0 ${W} 14`} width="100%" height="14" preserveAspectRatio="none" role="img" aria-label={label}>
      <rect width={W} height="14" rx="4" fill="#e5e7eb" />
      {parts.map((p, i) => {
        const w = (p.value / total) * W;
        const rect = <rect key={i} x={x} width={w} height="14" rx={w > 8 ? 4 : 0} fill={p.colour} />;
        x += w;
        return rect;
      })}
    </svg>
  );
}

export function TrackRecord({ agent }: { agent: Record }) {
  const { stats } = agent;
  const finished = agent.completedCount + agent.failedCount;
  const rate = stats.successRate ?? null;
  const p50 = stats.p50CompletionMs ?? null;
  const p95 = stats.p95CompletionMs ?? null;
  const slowest = Math.max(p50 ?? 0, p95 ?? 0) || 1;
  if (finished === 0 && stats.recentTasks === 0) {
    return <p className="note">No finished tasks yet. The figures appear once the agent has completed or failed a task.</p>;
  }
  return (
    <div className="record-grid">
      {agent.daily && agent.daily.length > 0 && <PerDay days={agent.daily} />}
      <figure className="record-item">
        <figcaption>
          All time: <strong>{agent.taskCount}</strong> finished (<strong>{agent.completedCount}</strong> completed, <strong>{agent.failedCount}</strong> failed)
        </figcaption>
        <Bar
          label={`${agent.completedCount} completed, ${agent.failedCount} failed`}
          parts={[
            { value: agent.completedCount, colour: '#047857' },
            { value: agent.failedCount, colour: '#b91c1c' },
          ]}
        />
      </figure>
      <figure className="record-item">
        <figcaption>
          Recent success rate: <strong>{percent(rate)}</strong>
          <span className="muted"> (last {stats.recentTasks} finished)</span>
        </figcaption>
        <Bar
          label={`Success rate ${percent(rate)}`}
          parts={[
            { value: rate ?? 0, colour: '#1d4ed8' },
            { value: 1 - (rate ?? 0), colour: 'transparent' },
          ]}
        />
      </figure>
      <figure className="record-item">
        <figcaption>
          Time to complete: median <strong>{duration(p50)}</strong>, 95th percentile <strong>{duration(p95)}</strong>
        </figcaption>
        <svg className="chart" viewBox={`0 0 ${W} 34`} width="100%" height="34" preserveAspectRatio="none" role="img" aria-label={`median ${duration(p50)}, 95th percentile ${duration(p95)}`}>
          <rect y="2" width={W} height="12" rx="4" fill="#e5e7eb" />
          <rect y="2" width={((p50 ?? 0) / slowest) * W} height="12" rx="4" fill="#0e7490" />
          <rect y="20" width={W} height="12" rx="4" fill="#e5e7eb" />
          <rect y="20" width={((p95 ?? 0) / slowest) * W} height="12" rx="4" fill="#7c3aed" />
        </svg>
      </figure>
    </div>
  );
}
