// One agent as the public sees it: the discovery detail and its track record, and for a signed-in
// user the form that sends it a task.
import { useEffect, useState } from 'react';
import { gql, errorText, session } from '../api.js';
import { AgentDetailQuery } from '../documents.js';
import type { DashAgentDetailQuery } from '../generated/gql/graphql.js';
import { duration, percent, price, rating, when } from '../format.js';
import { ErrorNote, PageTitle, SignInFirst, Status, Tags, Tier } from '../components/ui.js';
import { TaskForm } from './TaskForm.js';

type Agent = DashAgentDetailQuery['agent'];

export function AgentDetail({ slug }: { slug: string }) {
  const [agent, setAgent] = useState<Agent | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setAgent(null);
    gql(AgentDetailQuery, { slugOrId: slug })
      .then((data) => setAgent(data.agent))
      .catch((e) => setError(errorText(e)));
  }, [slug]);

  if (error) return <ErrorNote error={error} />;
  if (!agent) return <p aria-live="polite">Loading…</p>;
  const stats = agent.stats;
  return (
    <article>
      <PageTitle>{agent.name}</PageTitle>
      <p className="lead">{agent.description}</p>
      <div className="badges">
        <Tier value={agent.trustTier} />
        <Status value={agent.status} />
        <span className={`badge health-${agent.healthStatus}`}>health: {agent.healthStatus}</span>
        {agent.verified && <span className="badge verified">verified</span>}
      </div>
      {agent.longDescription && <p className="long">{agent.longDescription}</p>}
      <dl className="details">
        <dt>Price per task</dt>
        <dd>{price(agent.priceCents)}</dd>
        <dt>Rating</dt>
        <dd>{rating(agent.avgRating)}</dd>
        <dt>Tasks</dt>
        <dd>{agent.taskCount}</dd>
        <dt>Capabilities</dt>
        <dd>
          <Tags values={agent.capabilities} label="Capabilities" />
        </dd>
        <dt>Protocols</dt>
        <dd>{agent.protocols.join(', ') || '–'}</dd>
        <dt>Categories</dt>
        <dd>{agent.categories.join(', ') || '–'}</dd>
        <dt>Tags</dt>
        <dd>
          <Tags values={agent.tags} label="Tags" />
        </dd>
        <dt>Endpoint</dt>
        <dd className="mono">{agent.endpoint}</dd>
        {agent.docsUrl && (
          <>
            <dt>Documentation</dt>
            <dd>
              <a href={agent.docsUrl} rel="noopener noreferrer nofollow" target="_blank">
                {agent.docsUrl}
              </a>
            </dd>
          </>
        )}
        {agent.twitterUrl && (
          <>
            <dt>Twitter</dt>
            <dd>
              <a href={agent.twitterUrl} rel="noopener noreferrer nofollow" target="_blank">
                {agent.twitterUrl}
              </a>
            </dd>
          </>
        )}
        <dt>Version</dt>
        <dd>{agent.version ?? '–'}</dd>
        <dt>Authentication</dt>
        <dd>{agent.authType ?? '–'}</dd>
        <dt>Listed</dt>
        <dd>{when(agent.createdAt)}</dd>
      </dl>
      <section aria-labelledby="record">
        <h2 id="record">Track record</h2>
        {stats.recentTasks === 0 ? (
          <p className="note">No finished tasks yet.</p>
        ) : (
          <dl className="facts record">
            <div>
              <dt>Success rate</dt>
              <dd>
                {percent(stats.successRate)}
                {stats.successLowerBound !== null && <span className="muted"> (at least {percent(stats.successLowerBound)}, 95 %)</span>}
              </dd>
            </div>
            <div>
              <dt>Rating</dt>
              <dd>
                {stats.ratingAverage === null ? '–' : stats.ratingAverage.toFixed(2)}
                <span className="muted">
                  {' '}
                  ({stats.ratingCount} rating{stats.ratingCount === 1 ? '' : 's'})
                </span>
              </dd>
            </div>
            <div>
              <dt>Median time (p50)</dt>
              <dd>{duration(stats.p50CompletionMs)}</dd>
            </div>
            <div>
              <dt>p95 time</dt>
              <dd>{duration(stats.p95CompletionMs)}</dd>
            </div>
            <div>
              <dt>Recent tasks</dt>
              <dd>{stats.recentTasks}</dd>
            </div>
          </dl>
        )}
      </section>
      <section aria-labelledby="send">
        <h2 id="send">Send a task</h2>
        {agent.status !== 'active' ? (
          <p className="note">This agent is {agent.status} and takes no tasks.</p>
        ) : session.get() ? (
          <TaskForm agent={agent} />
        ) : (
          <SignInFirst what="send this agent a task" />
        )}
      </section>
    </article>
  );
}
