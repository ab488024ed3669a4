// One agent as the public sees it: who offers it, what it does (its long description, Markdown made
// safe), its track record as a small chart, the fields its task form asks for, how to call it from
// code, and for a signed-in user the form that sends it a task.
import { When } from '../components/When.js';
import { useEffect, useMemo, useState } from 'react';
import { gql } from '../api.js';
import { useViewer } from '../viewer.js';
import { AgentDetailQuery } from '../documents.js';
import type { DashAgentDetailQuery } from '../generated/gql/graphql.js';
import { price } from '../format.js';
import { markdownToHtml } from '../markdown.js';
import { LoadError, PageTitle, Rating, Skeleton, Status, Tags, Tier } from '../components/ui.js';
import { AgentIcon } from '../components/AgentIcon.js';
import { TrackRecord } from '../components/TrackRecord.js';
import { Snippets } from '../components/Snippets.js';
import { TaskForm } from './TaskForm.js';
import { InputFields } from '../components/InputFields.js';
import { Link } from '../router.js';

type Agent = DashAgentDetailQuery['agent'];

export function AgentDetail({ slug }: { slug: string }) {
  const [agent, setAgent] = useState<Agent | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const signedIn = useViewer().user !== null;

  useEffect(() => {
    setAgent(null);
    setError(null);
    gql(AgentDetailQuery, { slugOrId: slug })
      .then((data) => setAgent(data.agent))
      .catch((e: unknown) => setError(e));
  }, [slug, attempt]);

  const longHtml = useMemo(() => (agent?.longDescription ? markdownToHtml(agent.longDescription) : ''), [agent?.longDescription]);

  if (error) return <LoadError error={error} what="Agent" retry={() => setAttempt((n) => n + 1)} />;
  if (!agent) return <Skeleton lines={6} what="agent" />;
  return (
    <article className="agent-page">
      <header className="agent-header">
        <AgentIcon agent={agent} size={64} />
        <div>
          <PageTitle>{agent.name}</PageTitle>
          <p className="muted byline">
            {agent.ownerName ? `by ${agent.ownerName}` : 'independent owner'}
            {agent.version ? ` · version ${agent.version}` : ''} · listed <When at={agent.createdAt} />
          </p>
        </div>
      </header>
      <p className="lead">{agent.description}</p>
      <div className="badges">
        <Tier value={agent.trustTier} />
        <Status value={agent.status} />
        <span className={`badge health-${agent.healthStatus}`}>health: {agent.healthStatus}</span>
        {agent.verified && <span className="badge verified">verified</span>}
      </div>
      <dl className="facts headline">
        <div>
          <dt>Price per task</dt>
          <dd>
            {price(agent.priceCents)}
            {signedIn && agent.priceCents > 0 && (
              <>
                {' '}
                <Link href={`/billing?agent=${encodeURIComponent(agent.slug)}`} className="small">
                  Buy credits
                </Link>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Rating</dt>
          <dd>
            <Rating average={agent.avgRating} count={agent.ratingCount} />
          </dd>
        </div>
        <div>
          <dt>Tasks done</dt>
          <dd>{agent.completedCount}</dd>
        </div>
      </dl>
      {longHtml && <div className="markdown" data-testid="long-description" dangerouslySetInnerHTML={{ __html: longHtml }} />}

      <section aria-labelledby="record">
        <h2 id="record">Track record</h2>
        <TrackRecord agent={agent} />
      </section>

      <section aria-labelledby="send">
        <h2 id="send">Send a task</h2>
        {agent.status !== 'active' ? (
          <p className="note">This agent is {agent.status} and takes no tasks.</p>
        ) : signedIn ? (
          <TaskForm agent={agent} />
        ) : (
          <>
            <div className="sign-in-cta">
              <p>
                <strong>Sign in to send this agent a task.</strong> You pay {price(agent.priceCents)} only when it delivers; the payment is held until then.
              </p>
              <Link href="/sign-in" className="button">
                Sign in to send a task
              </Link>
            </div>
            <h3>What the agent asks for</h3>
            <InputFields inputSchema={agent.inputSchema} />
          </>
        )}
      </section>

      <section aria-labelledby="call">
        <h2 id="call">Call it from code</h2>
        <Snippets agent={agent} />
      </section>

      <section aria-labelledby="about">
        <h2 id="about">About</h2>
        <dl className="details">
          <dt>Capabilities</dt>
          <dd>{agent.capabilities.length ? <Tags values={agent.capabilities} label="Capabilities" /> : '–'}</dd>
          <dt>Protocols</dt>
          <dd>{agent.protocols.join(', ') || '–'}</dd>
          <dt>Categories</dt>
          <dd>{agent.categories.join(', ') || '–'}</dd>
          <dt>Tags</dt>
          <dd>{agent.tags.length ? <Tags values={agent.tags} label="Tags" /> : '–'}</dd>
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
          <dt>Authentication</dt>
          <dd>{agent.authType ?? '–'}</dd>
          <dt>Updated</dt>
          <dd><When at={agent.updatedAt} /></dd>
        </dl>
      </section>
    </article>
  );
}
