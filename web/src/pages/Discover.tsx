// Discover: public search over agents, as you type, with filters, the five sorts and pages. The
// search state lives in the URL, so a search can be shared and the back button works.
import { useEffect, useRef, useState } from 'react';
import { gql, errorText } from '../api.js';
import { DiscoverQuery } from '../documents.js';
import type { DashDiscoverQuery } from '../generated/gql/graphql.js';
import { price } from '../format.js';
import { Link, navigate, useLocation } from '../router.js';
import { AgentIcon } from '../components/AgentIcon.js';
import { Empty, ErrorNote, PageTitle, Rating, SkeletonCards, Tags, Tier } from '../components/ui.js';

const SORTS = [
  ['relevance', 'Relevance'],
  ['rating', 'Rating'],
  ['tasks', 'Most tasks'],
  ['created', 'Newest'],
  ['updated', 'Recently updated'],
] as const;
const STATUSES = ['active', 'inactive', 'deprecated'] as const;
const PER_PAGE = 12;
// Typing pauses this long before a search is sent, so each keystroke does not cost a request.
const TYPING_PAUSE_MS = 150;

type Sort = (typeof SORTS)[number][0];
type AgentStatus = (typeof STATUSES)[number];

interface Search {
  q: string;
  protocol: string;
  category: string;
  capability: string;
  status: AgentStatus;
  sort: Sort;
  page: number;
}

function readSearch(params: URLSearchParams): Search {
  const sort = params.get('sort');
  const status = params.get('status');
  return {
    q: params.get('q') ?? '',
    protocol: params.get('protocol') ?? '',
    category: params.get('category') ?? '',
    capability: params.get('capability') ?? '',
    status: STATUSES.find((s) => s === status) ?? 'active',
    sort: SORTS.find(([s]) => s === sort)?.[0] ?? 'relevance',
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
}

function toQueryString(s: Search): string {
  const params = new URLSearchParams();
  if (s.q) params.set('q', s.q);
  if (s.protocol) params.set('protocol', s.protocol);
  if (s.category) params.set('category', s.category);
  if (s.capability) params.set('capability', s.capability);
  if (s.status !== 'active') params.set('status', s.status);
  if (s.sort !== 'relevance') params.set('sort', s.sort);
  if (s.page > 1) params.set('page', String(s.page));
  const text = params.toString();
  return text ? `/?${text}` : '/';
}

const list = (value: string) => (value.trim() ? [value.trim()] : null);

export function Discover() {
  const { search: params } = useLocation();
  const search = readSearch(params);
  const [draft, setDraft] = useState(search);
  const [result, setResult] = useState<DashDiscoverQuery['discover'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);
  const key = toQueryString(search);

  const written = useRef(key);

  // The URL follows the form; the results follow the URL.
  useEffect(() => {
    const next = toQueryString(draft);
    if (next === key) return;
    const timer = setTimeout(() => {
      written.current = next;
      navigate(next, { replace: true });
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [draft, key]);

  // A URL the form did not write (back button, a link): the form shows it.
  useEffect(() => {
    if (key !== written.current) {
      written.current = key;
      setDraft(readSearch(new URLSearchParams(location.search)));
    }
  }, [key]);

  useEffect(() => {
    const request = ++latest.current;
    setLoading(true);
    gql(DiscoverQuery, {
      q: search.q.trim() || null,
      protocols: list(search.protocol),
      categories: list(search.category),
      capabilities: list(search.capability),
      status: search.status,
      sort: search.sort,
      page: search.page,
      perPage: PER_PAGE,
    })
      .then((data) => {
        // Answers can arrive out of order while typing; only the newest request's answer is shown.
        if (request !== latest.current) return;
        setResult(data.discover);
        setError(null);
      })
      .catch((e) => request === latest.current && setError(errorText(e)))
      .finally(() => request === latest.current && setLoading(false));
  }, [key]);

  // Typing replaces the current history entry (after a pause); a choice in a list adds one at once.
  const change = (patch: Partial<Search>) => setDraft((d) => ({ ...d, page: 1, ...patch }));
  const choose = (patch: Partial<Search>) => {
    const next = { ...draft, page: 1, ...patch };
    written.current = toQueryString(next);
    setDraft(next);
    navigate(written.current);
  };
  const goToPage = (page: number) => {
    const next = { ...draft, page };
    written.current = toQueryString(next);
    setDraft(next);
    navigate(written.current);
  };

  return (
    <section>
      <PageTitle>Discover agents</PageTitle>
      <form className="search" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="field wide">
          <label htmlFor="q">Search</label>
          <input id="q" type="search" value={draft.q} placeholder="e.g. translator, summarize, code review" autoComplete="off" onChange={(e) => change({ q: e.target.value })} />
        </div>
        <div className="filters">
          <div className="field">
            <label htmlFor="f-capability">Capability</label>
            <input id="f-capability" value={draft.capability} onChange={(e) => change({ capability: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="f-protocol">Protocol</label>
            <input id="f-protocol" value={draft.protocol} onChange={(e) => change({ protocol: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="f-category">Category</label>
            <input id="f-category" value={draft.category} onChange={(e) => change({ category: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor="f-status">Status</label>
            <select id="f-status" value={draft.status} onChange={(e) => choose({ status: e.target.value as AgentStatus })}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-sort">Sort by</label>
            <select id="f-sort" value={draft.sort} onChange={(e) => choose({ sort: e.target.value as Sort })}>
              {SORTS.map(([value, name]) => (
                <option key={value} value={value}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        </div>
      </form>
      <ErrorNote error={error} />
      <p className="summary" aria-live="polite">
        {loading && !result ? 'Searching…' : result ? `${result.total} agent${result.total === 1 ? '' : 's'} found` : ''}
      </p>
      {!result && loading && <SkeletonCards />}
      {result && result.total === 0 && (
        <Empty title="No agent matches this search">
          <p>Try fewer or shorter words, or another spelling.</p>
          {(draft.capability || draft.protocol || draft.category || draft.status !== 'active') && (
            <button type="button" className="secondary" onClick={() => choose({ capability: '', protocol: '', category: '', status: 'active' })}>
              Clear the filters
            </button>
          )}
        </Empty>
      )}
      {result && (
        <>
          <ul className="cards" aria-busy={loading}>
            {result.data.map((agent) => (
              <li key={agent.id} className="card">
                <div className="card-head">
                  <AgentIcon agent={agent} />
                  <div>
                    <h2>
                      <Link href={`/agents/${encodeURIComponent(agent.slug)}`}>{agent.name}</Link>
                    </h2>
                    <p className="muted byline">
                      {agent.ownerName ? `by ${agent.ownerName}` : 'independent owner'}
                      {agent.verified ? ' · verified' : ''}
                    </p>
                  </div>
                </div>
                <p>{agent.description || 'No description.'}</p>
                <Tags values={agent.capabilities} label="Capabilities" />
                <dl className="facts">
                  <div>
                    <dt>Trust</dt>
                    <dd>
                      <Tier value={agent.trustTier} />
                      <span className="muted counts">
                        {' '}
                        {agent.completedCount} ok · {agent.failedCount} failed
                      </span>
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
                  <div>
                    <dt>Price</dt>
                    <dd>{price(agent.priceCents)}</dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
          {result.totalPages > 1 && (
            <nav className="pager" aria-label="Pages">
              <button type="button" disabled={result.page <= 1} onClick={() => goToPage(result.page - 1)}>
                Previous
              </button>
              <span>
                Page {result.page} of {result.totalPages}
              </span>
              <button type="button" disabled={result.page >= result.totalPages} onClick={() => goToPage(result.page + 1)}>
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
