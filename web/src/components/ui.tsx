// Small pieces the pages share.
import { useEffect, useRef, type ReactNode } from 'react';
import { label } from '../format.js';
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
  return <span className={`badge tier-${value}`}>{value === 'unrated' ? 'unrated' : `${value} tier`}</span>;
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
      <Link href="/sign-in">Sign in</Link> to {what}.
    </p>
  );
}
