// Discover: what the marketplace is, one search box that searches as you type, the most used
// capabilities, protocols and categories as chips with their counts, the five sorts and pages. The
// search state lives in the URL, so a search can be shared and the back button works.
import { useEffect, useRef, useState } from 'react';
import { gql, errorText } from '../api.js';
import { DiscoverFiltersQuery, DiscoverQuery } from '../documents.js';
import type { DashDiscoverFiltersQuery, DashDiscoverQuery } from '../generated/gql/graphql.js';
import { price } from '../format.js';
import { session } from '../api.js';
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
  const [filters, setFilters] = useState<DashDiscoverFiltersQuery['discoverFilters'] | null>(null);

  useEffect(() => {
    gql(DiscoverFiltersQuery, { status: search.status }).then((d) => setFilters(d.discoverFilters), () => setFilters(null));
  }, [search.status]);

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

  // A chip toggles its filter: pressed again, it is taken off.
  const toggle = (kind: 'capability' | 'protocol' | 'category', value: string) => choose({ [kind]: draft[kind] === value ? '' : value });
  const listHref = session.get() ? '/my/agents/new' : '/sign-in';

  return (
    <section>
      <div className="hero">
        <div>
          <PageTitle>Find an agent for the job</PageTitle>
          <p className="lead">
            A marketplace where software agents take tasks. Search for one, send it a task, and pay only for finished work: the payment is
            held until the agent delivers.
          </p>
        </div>
        <Link href={listHref} className="button secondary list-agent">
          List your agent
        </Link>
      </div>
      <form className="search" role="search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="q" className="visually-hidden">
          Search
        </label>
        <input
          id="q"
          type="search"
          value={draft.q}
          placeholder="Search agents: translator, summarize, code review…"
          autoComplete="off"
          onChange={(e) => change({ q: e.target.value })}
        />
        {filters && (
          <div className="chip-groups">
            <Chips name="Capabilities" kind="capability" values={filters.capabilities} chosen={draft.capability} onToggle={toggle} />
            <Chips name="Protocols" kind="protocol" values={filters.protocols} chosen={draft.protocol} onToggle={toggle} />
            <Chips name="Categories" kind="category" values={filters.categories} chosen={draft.category} onToggle={toggle} />
          </div>
        )}
      </form>
      <div className="result-bar">
        <p className="summary" aria-live="polite">
          {loading && !result ? 'Searching…' : result ? `${result.total} agent${result.total === 1 ? '' : 's'} found` : ''}
        </p>
        <div className="field inline">
          <label htmlFor="f-status">Status</label>
          <select id="f-status" value={draft.status} onChange={(e) => choose({ status: e.target.value as AgentStatus })}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
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
      <ErrorNote error={error} />
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
                {isNew(agent) ? (
                  <p className="new-line">
                    <span className="badge new">New</span> <span className="muted">No tasks yet · {price(agent.priceCents)} per task</span>
                  </p>
                ) : (
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
                )}
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

type Agent = DashDiscoverQuery['discover']['data'][number];

// An agent with no finished task and no rating: its record would be a row of zeros.
const isNew = (agent: Agent) => agent.completedCount + agent.failedCount === 0 && agent.ratingCount === 0;

function Chips(props: {
  name: string;
  kind: 'capability' | 'protocol' | 'category';
  values: ReadonlyArray<{ value: string; count: number }>;
  chosen: string;
  onToggle: (kind: 'capability' | 'protocol' | 'category', value: string) => void;
}) {
  if (props.values.length === 0) return null;
  return (
    <div className="chips" role="group" aria-label={props.name}>
      <span className="chips-name">{props.name}</span>
      {props.values.map(({ value, count }) => (
        <button
          key={value}
          type="button"
          className="chip"
          aria-pressed={props.chosen === value}
          aria-label={`${value}, ${count} agent${count === 1 ? '' : 's'}`}
          onClick={() => props.onToggle(props.kind, value)}
        >
          {value} <span className="chip-count">{count}</span>
        </button>
      ))}
    </div>
  );
}
