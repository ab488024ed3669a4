// The agents I own (made by hand or imported from an A2A card), each with its delivery health at a
// glance, and the tasks that reached them as a compact list naming the agent; the moves are on its page.
import { When } from '../components/When.js';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { gql, errorText } from '../api.js';
import { DeliveriesQuery, ImportAgentMutation, MyAgentsQuery, NotificationsQuery, TasksQuery } from '../documents.js';
import type { DashDeliveriesQuery, DashNotificationsQuery, DashOwnAgentFragment, DashTaskFragment } from '../generated/gql/graphql.js';
import { price, rating } from '../format.js';
import { Link, navigate } from '../router.js';
import { Empty, ErrorNote, PageTitle, Skeleton, Status, Tier } from '../components/ui.js';
import { AgentIcon } from '../components/AgentIcon.js';
import { HealthSummary } from '../components/DeliveryHealth.js';

type Deliveries = DashDeliveriesQuery['agentDeliveries'];
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function MyAgents() {
  const [agents, setAgents] = useState<DashOwnAgentFragment[] | null>(null);
  const [deliveries, setDeliveries] = useState<Record<string, Deliveries>>({});
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    gql(MyAgentsQuery).then(
      (d) => {
        setAgents(d.myAgents);
        for (const agent of d.myAgents) {
          gql(DeliveriesQuery, { agentId: agent.id, limit: 50 }).then(
            (r) => setDeliveries((all) => ({ ...all, [agent.id]: r.agentDeliveries })),
            () => {},
          );
        }
      },
      (e) => setError(errorText(e)),
    );
  }, []);

  return (
    <section>
      <PageTitle>My agents</PageTitle>
      <p>
        <Link href="/my/agents/new" className="button">
          New agent
        </Link>
      </p>
      <ImportCard />
      <ErrorNote error={error} />
      {agents?.some((a) => a.deliveryState !== 'active') && (
        <p className="error" role="alert">
          {agents
            .filter((a) => a.deliveryState !== 'active')
            .map((a) => `${a.name}: endpoint ${a.deliveryState}`)
            .join(' · ')}
        </p>
      )}
      {agents === null && !error && <Skeleton lines={3} what="agents" />}
      {agents && agents.length === 0 && (
        <Empty title="You have no agents yet">
          <p>List an agent with its endpoint and price; requesters find it on Discover and send it tasks.</p>
        </Empty>
      )}
      <ul className="agent-rows">
        {agents?.map((agent) => (
          <li key={agent.id} className="agent-row">
            <AgentIcon agent={agent} size={36} />
            <div className="agent-row-main">
              <div className="agent-row-head">
                <Link href={`/my/agents/${agent.id}`}>{agent.name}</Link>
                <Status value={agent.status} />
                <Tier value={agent.trustTier} />
                {agent.protocols.includes('a2a') && <span className="muted">A2A{agent.cardVerified ? ', signed card verified' : ''}</span>}
              </div>
              <div className="muted">
                {price(agent.priceCents)} · {rating(agent.avgRating)} · {plural(agent.taskCount, 'task')}
              </div>
              <HealthSummary deliveries={deliveries[agent.id] ?? null} />
            </div>
          </li>
        ))}
      </ul>
      <Notifications names={new Map((agents ?? []).map((a) => [a.id, a.name]))} />
      <AgentTasks />
    </section>
  );
}

function ImportCard() {
  const [cardUrl, setCardUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const agent = (await gql(ImportAgentMutation, { cardUrl })).importAgent;
      navigate(`/my/agents/${agent.id}`);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)}>
      <label id="import-card" htmlFor="card-url">
        Import an A2A agent from its card
      </label>
      <input id="card-url" type="url" required placeholder="https://agent.example/.well-known/agent-card.json" value={cardUrl} onChange={(e) => setCardUrl(e.target.value)} />
      <button type="submit" disabled={busy}>
        Import
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

// What each operational event means, said of the agent it is about.
const EVENT_WORDS: Record<string, string> = {
  'endpoint.failing': 'deliveries to its endpoint keep failing',
  'endpoint.disabled': 'its endpoint was disabled after failing for long; it gets no deliveries until you enable it',
  'delivery.exhausted': 'a delivery gave up after its last retry',
  'delivery.recovered': 'a delivery got through after failing first',
};
const NOTICE_STATUS: Record<string, string> = {
  pending: 'not posted to your notification URL yet',
  succeeded: 'posted to your notification URL',
  failed: 'could not be posted to your notification URL',
};

// Operational events about my agents (endpoint.failing, endpoint.disabled, delivery.exhausted,
// delivery.recovered). Where they are POSTed is set on the account page.
function Notifications({ names }: { names: ReadonlyMap<string, string> }) {
  const [data, setData] = useState<DashNotificationsQuery | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    gql(NotificationsQuery, { limit: 10 }).then(setData, (e) => setError(errorText(e)));
  }, []);

  return (
    <section aria-labelledby="notifications">
      <h2 id="notifications">Notifications</h2>
      <p className="hint">
        {data?.me.notificationUrl ? (
          <>
            Sent to <span className="mono">{data.me.notificationUrl}</span>;
          </>
        ) : (
          'Not sent anywhere yet;'
        )}{' '}
        set the notification URL on <Link href="/account">your account</Link>.
      </p>
      <ErrorNote error={error} />
      {data && data.myNotifications.length === 0 && <p className="note">No events.</p>}
      <ul className="rows">
        {data?.myNotifications.map((n) => {
          const taskId = (n.data as { taskId?: unknown } | null)?.taskId;
          return (
            <li key={n.id} data-event={n.type}>
              <span>
                {n.agentId ? <Link href={`/my/agents/${n.agentId}`}>{names.get(n.agentId) ?? 'An agent'}</Link> : 'An agent'}: {EVENT_WORDS[n.type] ?? n.type.replace(/[._]/g, ' ')}
                {typeof taskId === 'string' && (
                  <>
                    {' '}
                    (<Link href={`/tasks/${encodeURIComponent(taskId)}`}>the task</Link>)
                  </>
                )}
              </span>
              <span className="muted">
                <When at={n.createdAt} /> · {NOTICE_STATUS[n.status] ?? n.status}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function AgentTasks() {
  const [tasks, setTasks] = useState<DashTaskFragment[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setTasks((await gql(TasksQuery, { role: 'agent', limit: 50 })).tasks.data);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  useEffect(() => void load(), [load]);

  return (
    <section aria-labelledby="agent-tasks">
      <div className="section-head">
        <h2 id="agent-tasks">Tasks for my agents</h2>
        <button type="button" className="secondary" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <ErrorNote error={error} />
      {tasks === null && !error && <Skeleton lines={3} what="tasks" />}
      {tasks && tasks.length === 0 && <Empty title="No tasks have reached your agents yet" />}
      {tasks && tasks.length > 0 && (
        <ul className="rows agent-tasks">
          {tasks.map((task) => (
            <li key={task.id} className="agent-task">
              <Link href={`/tasks/${task.id}`}>{task.title}</Link>
              <span className="muted">for {task.agent?.name ?? 'an agent since removed'}</span>
              <Status value={task.status} />
              <span className="muted"><When at={task.createdAt} /></span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
