// Small pieces the pages share: notes, badges, headings, and the states every page can be in
// (loading, empty, not found, failed).
import { useEffect, useRef, type ReactNode } from 'react';
import { ApiError } from '../api.js';
import { label, rating } from '../format.js';
import { Link } from '../router.js';

export function ErrorNote({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {error}
    </p>
  );
}

export function Status({ value }: { value: string }) {
  return <span className={`badge status-${value}`}>{label(value)}</span>;
}

export function Tier({ value }: { value: string }) {
  return <span className={`badge tier-${value}`}>{value === 'unrated' ? 'new, no tier yet' : `${value} tier`}</span>;
}

// An agent's average rating, with how many ratings it stands on once there are any.
export function Rating({ average, count }: { average: number | null | undefined; count: number }) {
  return (
    <>
      {rating(average)}
      {count > 0 && <span className="muted"> ({count})</span>}
    </>
  );
}

export function Tags({ values, label: name }: { values: readonly string[]; label: string }) {
  if (values.length === 0) return null;
  return (
    <ul className="tags" aria-label={name}>
      {values.map((v) => (
        <li key={v}>{v}</li>
      ))}
    </ul>
  );
}

// The page's heading takes focus when the page changes, so screen readers announce the new page and
// keyboard users start at its top.
export function PageTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

export function SignInFirst({ what }: { what: string }) {
  return (
    <p className="note">
      <Link href={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`}>Sign in</Link> to {what}.
    </p>
  );
}

// Grey blocks in the shape of what is coming, announced once as loading.
export function Skeleton({ lines = 3, what = 'page' }: { lines?: number; what?: string }) {
  return (
    <div className="skeleton" role="status" aria-label={`Loading the ${what}`}>
      <div className="sk sk-title" />
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="sk sk-line" style={{ width: `${90 - ((i * 17) % 40)}%` }} />
      ))}
    </div>
  );
}

export function SkeletonCards({ count = 6 }: { count?: number }) {
  return (
    <ul className="cards" role="status" aria-label="Loading agents">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="card sk-card" aria-hidden="true">
          <div className="sk sk-title" />
          <div className="sk sk-line" />
          <div className="sk sk-line short" />
        </li>
      ))}
    </ul>
  );
}

// A friendly empty state: what is missing and what to do about it.
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children && <div className="empty-body">{children}</div>}
    </div>
  );
}

export function NotFound({ what = 'Page', children }: { what?: string; children?: ReactNode }) {
  return (
    <section className="not-found">
      <p className="code" aria-hidden="true">
        404
      </p>
      <PageTitle>{what} not found</PageTitle>
      {children ?? <p>The address may be mistyped, or what it pointed to is gone.</p>}
      <p className="buttons">
        <Link href="/" className="button">
          Back to Discover
        </Link>
        <Link href="/tasks" className="button secondary">
          My tasks
        </Link>
      </p>
    </section>
  );
}

// A load that failed: not found is its own page; anything else says what went wrong and offers a retry.
export function LoadError({ error, what, retry }: { error: unknown; what: string; retry?: () => void }) {
  if (isNotFound(error)) return <NotFound what={what} />;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <section className="load-error">
      <PageTitle>Could not load this {what.toLowerCase()}</PageTitle>
      <p className="error" role="alert">
        {message}
      </p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </section>
  );
}

export function isNotFound(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === 'NOT_FOUND' || error.status === 404;
  return typeof error === 'string' && /not found|no such/i.test(error);
}
